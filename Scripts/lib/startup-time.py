#!/usr/bin/env python3
"""Start-up time of a Unix-socket server, for Scripts/bench.

    startup-time.py RUNS SOCKET COMMAND...

Runs COMMAND RUNS times; each time measures from the spawn until the server at SOCKET has
answered one `nowPlaying` line, then ends it with SIGTERM. Prints the median, min and max."""
import os, socket, statistics, subprocess, sys, time

runs, path, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = []
for _ in range(runs):
    if os.path.exists(path):
        os.unlink(path)
    start = time.perf_counter()
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    while True:
        client = socket.socket(socket.AF_UNIX)
        try:
            client.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError):
            client.close()
            if server.poll() is not None:
                sys.exit("startup-time.py: the server exited with %d" % server.returncode)
            time.sleep(0.0002)
    client.sendall(b'{"command":"nowPlaying"}\n')
    reply = client.makefile("rb").readline()
    times.append((time.perf_counter() - start) * 1000)
    if not reply.startswith(b'{"status":"success"'):
        sys.exit("startup-time.py: unexpected reply %r" % reply)
    client.close()
    server.terminate()
    server.wait()
times.sort()
print("p50 %.1f ms, min %.1f ms, max %.1f ms" % (statistics.median(times), times[0], times[-1]))
