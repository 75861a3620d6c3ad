#!/usr/bin/env python3
"""Seconds from a daemon's spawn until it answers with a queue of COUNT items, for Scripts/bench.

    queue-back.py playbackd SOCKET COUNT COMMAND...    (a `queue` request's `count`)
    queue-back.py mpd SOCKET COUNT COMMAND...          (MPD's `status`: `playlistlength`)

Spawns COMMAND, connects (again and again until the socket answers) and asks every 2 ms. The
time counts from the spawn: timed from this script's own start instead, a daemon started
before it had its first 10 - 80 ms for free (Python's start-up, longer through a pyenv shim).
A playbackd is then ended with SIGTERM and waited for; an MPD forks itself into the
background, and the caller ends it (`mpd --kill`)."""
import socket, subprocess, sys, time

kind, path, count, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
start = time.monotonic()
server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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
                if kind == "playbackd":
                    server.terminate()
                server.wait()
                sys.exit(0)
            time.sleep(0.002)
    except OSError:
        if kind == "playbackd" and server.poll() is not None:
            sys.exit("the daemon exited with %d" % server.returncode)
        time.sleep(0.002)
server.terminate()
sys.exit("the queue did not come back within 600 s")
