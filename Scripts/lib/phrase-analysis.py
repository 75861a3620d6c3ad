#!/usr/bin/python3
"""Times a phrase analysis through the daemon's socket: replaces the queue with FILE, turns
phrase mode on and plays, then asks for `phrases` every 5 ms until the analysis is complete.
Prints the seconds from the request to the complete list, the seconds from it to the first
sample written to the device (CAPTURE, the ALSA file plugin's output, polled meanwhile), and
the number of phrases.
  phrase-analysis.py SOCKET FILE TIMEOUT CAPTURE"""
import json
import os
import socket
import sys
import time

path, file, timeout, capture = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]


def connect():
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    return client, client.makefile("r")


def call(client, reader, request):
    client.sendall((json.dumps(request) + "\n").encode())
    return json.loads(reader.readline())


def written():
    try:
        return os.stat(capture).st_size > 0
    except FileNotFoundError:
        return False


requests, replies = connect()
call(requests, replies, {"command": "stop"})
if os.path.exists(capture):
    os.unlink(capture)
call(requests, replies, {"command": "enqueue", "items": [file], "replace": True})
start = time.monotonic()
call(requests, replies, {"command": "setPhraseMode", "enabled": True})
call(requests, replies, {"command": "play"})
playing = None
while time.monotonic() - start < timeout:
    if playing is None and written():
        playing = time.monotonic() - start
    reply = call(requests, replies, {"command": "phrases"})
    if reply.get("complete") and playing is not None:
        print("%.4f %.4f %d" % (time.monotonic() - start, playing, len(reply["phrases"])))
        call(requests, replies, {"command": "stop"})
        sys.exit(0)
    time.sleep(0.002)
sys.exit("the analysis did not finish within %s s" % timeout)
