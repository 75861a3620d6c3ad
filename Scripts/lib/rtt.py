#!/usr/bin/env python3
"""Round trips of one request line on a Unix socket, one at a time, for Scripts/bench.

    rtt.py SOCKET COUNT [LINE]

Sends LINE (default: a `nowPlaying` request) COUNT times on one connection, each after the
reply to the last, and prints p50, p99 and max in microseconds. A reply is one line, or, for
cmus's socket (`--cmus`), the lines up to an empty one."""
import socket, sys, time

args = [a for a in sys.argv[1:] if a != "--cmus"]
cmus = "--cmus" in sys.argv
path, count = args[0], int(args[1])
line = (args[2] if len(args) > 2 else '{"command":"nowPlaying"}').encode() + b"\n"
client = socket.socket(socket.AF_UNIX)
client.connect(path)
replies = client.makefile("rb")
samples = []
for _ in range(count):
    start = time.perf_counter()
    client.sendall(line)
    if cmus:
        while replies.readline() not in (b"\n", b""):
            pass
    else:
        replies.readline()
    samples.append((time.perf_counter() - start) * 1e6)
samples.sort()
print("p50 %d µs, p99 %d µs, max %d µs" % (samples[len(samples) // 2], samples[int(len(samples) * 0.99)], samples[-1]))
