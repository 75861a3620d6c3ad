#!/usr/bin/env python3
"""Seconds from now until a daemon answers with a queue of COUNT items, for Scripts/bench.

    queue-back.py playbackd SOCKET COUNT    (a `queue` request's `count`)
    queue-back.py mpd SOCKET COUNT          (MPD's `status`: `playlistlength`)

Connects (again and again until the socket answers) and asks every 2 ms."""
import socket, sys, time

kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = time.monotonic()


def ask(client, replies):
    if kind == "playbackd":
        client.sendall(b'{"command":"queue","limit":1}\n')
        line = replies.readline()
        return ('"count":%d,' % count).encode() in line or ('"count":%d}' % count).encode() in line
    client.sendall(b"status\n")
    found = False
    while True:
        line = replies.readline()
        if line.startswith(b"playlistlength: "):
            found = int(line.split()[1]) == count
        if line in (b"OK\n", b"") or line.startswith(b"ACK"):
            return found


while time.monotonic() - start < 600:
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect(path)
        replies = client.makefile("rb")
        if kind == "mpd":
            replies.readline()  # the greeting
        while time.monotonic() - start < 600:
            if ask(client, replies):
                print("%.3f" % (time.monotonic() - start))
                sys.exit(0)
            time.sleep(0.002)
    except OSError:
        time.sleep(0.002)
sys.exit("the queue did not come back within 600 s")
