/* Stretches raw 16-bit stereo 44.1 kHz from stdin to stdout with Sonic at argv[1]x. */
#include <sonic.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  sonicStream s = sonicCreateStream(44100, 2);
  sonicSetSpeed(s, atof(argv[1]));
  short in[2048 * 2], out[8192 * 2];
  size_t n;
  while ((n = fread(in, 4, 2048, stdin)) > 0) {
    sonicWriteShortToStream(s, in, n);
    int got;
    while ((got = sonicReadShortFromStream(s, out, 8192)) > 0) fwrite(out, 4, got, stdout);
  }
  sonicFlushStream(s);
  int got;
  while ((got = sonicReadShortFromStream(s, out, 8192)) > 0) fwrite(out, 4, got, stdout);
  return 0;
}
