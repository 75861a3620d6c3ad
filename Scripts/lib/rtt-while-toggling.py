#!/usr/bin/env python3
"""Round trips of `nowPlaying` while another connection toggles, for Scripts/bench.

    rtt-while-toggling.py SOCKET TOGGLES

One connection sends `togglePlayPause` TOGGLES times, 50 ms apart (each play opens the
device, each pause halts the pipeline and may release it); meanwhile a second connection
sends `nowPlaying` back to back, each after the reply to the last. Prints the second
connection's p50, p99 and max round trip in microseconds: what a request waits while the
device opens and closes. Leaves the daemon as it found it (an even count of toggles)."""
import socket, sys, threading, time

path, toggles = sys.argv[1], int(sys.argv[2])
toggles += toggles % 2
done = threading.Event()


def toggle():
    client = socket.socket(socket.AF_UNIX)
    client.connect(path)
    replies = client.makefile("rb")
    for _ in range(toggles):
        client.sendall(b'{"command":"togglePlayPause"}\n')
        replies.readline()
        time.sleep(0.05)
    done.set()


client = socket.socket(socket.AF_UNIX)
client.connect(path)
replies = client.makefile("rb")
samples = []
toggler = threading.Thread(target=toggle)
toggler.start()
while not done.is_set():
    start = time.perf_counter()
    client.sendall(b'{"command":"nowPlaying"}\n')
    replies.readline()
    samples.append((time.perf_counter() - start) * 1e6)
toggler.join()
samples.sort()
print("p50 %d µs, p99 %d µs, max %d µs over %d requests" % (
    samples[len(samples) // 2], samples[int(len(samples) * 0.99)], samples[-1], len(samples)))
