#!/usr/bin/env python3
"""How soon a seek is heard on a device that reports no delay, for Scripts/bench: ALSA's file
plugin writing into a FIFO, read at real-time pace (as snapserver reads a pipe source).

    fifo-seek.py FIFO MP3 playbackd SOCKET
    fifo-seek.py FIFO MP3 mpg123

MP3 is a sequence of one-second tones, second s at 200 + 50 s Hz (Scripts/bench makes it).
Plays it, and three times seeks from about 5 s into it to 30 s: the time from the request
until a 20 ms block read from the FIFO has the 30th second's tone (counted by its zero
crossings). Prints the median and the three, in seconds. The player must be set up to write
into FIFO (the device `fifo` of the bench's ALSA configuration)."""
import os, struct, sys, threading, time

from seek_player import SeekPlayer

fifo, mp3, kind = sys.argv[1], sys.argv[2], sys.argv[3]
fd = os.open(fifo, os.O_RDWR)  # also a writer: no end of file between the player's opens
blocks = []  # (time read, zero crossings of the left channel)


def read():
    size, due = 3528, time.monotonic()  # 20 ms of 44.1 kHz stereo 16-bit
    while True:
        data = b""
        while len(data) < size:
            data += os.read(fd, size - len(data))
        left = struct.unpack("<%dh" % (size // 2), data)[0::2]
        blocks.append((time.monotonic(), sum(1 for a, b in zip(left, left[1:]) if (a < 0) != (b < 0))))
        due += 0.02
        time.sleep(max(0, due - time.monotonic()))


threading.Thread(target=read, daemon=True).start()
player = SeekPlayer(kind, mp3, sock=sys.argv[4] if kind == "playbackd" else None, output=["-o", "alsa", "-a", "fifo"])
# The 30th second's tone, 1700 Hz: 68 crossings in 20 ms; the 5th's, 450 Hz: 18.
results = []
time.sleep(5)
for _ in range(3):
    asked = time.monotonic()
    player.seek()
    while time.monotonic() - asked < 10 and not any(t > asked and n >= 60 for t, n in blocks):
        time.sleep(0.005)
    heard = [t - asked for t, n in blocks if t > asked and n >= 60]
    results.append(heard[0] if heard else 10.0)
    player.back()
    time.sleep(4)
player.stop()
print("%.3f (%s)" % (sorted(results)[1], ", ".join("%.3f" % r for r in results)))
