#!/usr/bin/env python3
"""Round trips of one MPD command, for Scripts/bench: the same measure as `playbackd-bench
rtt-request` on playbackd's socket (one connection, one request at a time).

    mpd-rtt.py SOCKET COUNT COMMAND

Sends COMMAND (one protocol line) COUNT times, reads each reply to its `OK`, and prints p50,
p99 and max in microseconds, and the lines of the last reply."""
import socket, statistics, sys, time

path, count, command = sys.argv[1], int(sys.argv[2]), sys.argv[3]
client = socket.socket(socket.AF_UNIX)
client.connect(path)
replies = client.makefile("rb")
if not replies.readline().startswith(b"OK MPD"):
    sys.exit("mpd-rtt.py: no MPD greeting")
times, lines = [], 0
for _ in range(count):
    start = time.perf_counter()
    client.sendall(command.encode() + b"\n")
    lines = 0
    while True:
        line = replies.readline()
        if not line or line.startswith(b"ACK"):
            sys.exit("mpd-rtt.py: %r" % line)
        if line == b"OK\n":
            break
        lines += 1
    times.append((time.perf_counter() - start) * 1e6)
times.sort()
print("p50 %d µs, p99 %d µs, max %d µs (%d lines)" % (
    statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))], times[-1], lines))
