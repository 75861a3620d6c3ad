#!/usr/bin/env python3
"""How soon playback pauses when the output device goes away (issue 17's route change).

Usage: route-lost.py SOCKET [ROUNDS]   (the daemon plays to PulseAudio through ALSA's pulse plugin,
with something queued; pactl reaches the same server)

Each round loads a null sink, makes it the default, plays, waits until the position advances,
and unloads the sink's module as a Bluetooth headset going out of range would. It measures from
the moment `pactl unload-module` is started (its own start-up included, so an upper bound) to
the pushed `paused` event. Prints one JSON line per round; the default sink is `nullsink` after.
"""
import json
import socket
import subprocess
import sys
import time

sock_path = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8


def pactl(*arguments):
    return subprocess.run(["pactl", *arguments], capture_output=True, text=True, check=True).stdout.strip()


def call(command):
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(sock_path)
        client.sendall((json.dumps({"command": command}) + "\n").encode())
        return json.loads(client.makefile().readline())


events = socket.socket(socket.AF_UNIX)
events.connect(sock_path)
stream = events.makefile("rwb")
stream.write(b'{"command":"subscribe"}\n')
stream.flush()
stream.readline()


def wait_for(predicate):
    while True:
        event = json.loads(stream.readline())
        if predicate(event.get("nowPlaying", {})):
            return event


for index in range(rounds):
    module = pactl("load-module", "module-null-sink", f"sink_name=routelost{index}", "rate=44100", "channels=2")
    pactl("set-default-sink", f"routelost{index}")
    call("play")
    wait_for(lambda now: now.get("state") == "playing" and now.get("rate", 0) > 0)
    time.sleep(0.5)
    started = time.monotonic()
    pactl("unload-module", module)
    returned = time.monotonic()
    event = wait_for(lambda now: now.get("state") == "paused")
    paused = time.monotonic()
    print(json.dumps({
        "pausedMs": round((paused - started) * 1000, 1),
        "afterPactlMs": round((paused - returned) * 1000, 1),
        "reason": event["nowPlaying"].get("routeChange", {}).get("reason"),
    }))
pactl("set-default-sink", "nullsink")
