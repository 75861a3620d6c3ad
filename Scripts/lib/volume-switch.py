#!/usr/bin/env python3
"""How soon a volume change is heard, and whether it clicks, from what PulseAudio plays.

Usage: volume-switch.py SOCKET TONE.mp3 [SINK]   (the daemon plays to PulseAudio's SINK,
default `nullsink`)

Records the sink's monitor with parec, plays TONE (a sine, e.g. 1 kHz at half scale) and
changes the volume a few times. For each change, from the frame the recording had reached when
the request was sent: when the tone's level (the peak over each millisecond) first crosses
half-way between the level before and the level after, and the largest step between two samples
around the change beside the tone's own largest (its slope at the higher of the two levels).
The recording runs a few milliseconds behind the sink (parec's 5 ms latency), so the times are
upper bounds. Prints one JSON line per change.
"""
import json
import struct
import sys
import time

from sink_monitor import MonitorRecording, call

sock_path, tone = sys.argv[1], sys.argv[2]
sink = sys.argv[3] if len(sys.argv) > 3 else "nullsink"
recording = MonitorRecording(sink)
recorded = recording.data


def left_channel(frames):
    return struct.unpack("<%dh" % (2 * frames), bytes(recorded[:4 * frames]))[0::2]


def level(left, start, end):
    return max(abs(s) for s in left[start:end])


time.sleep(0.5)
call(sock_path, {"command": "changeVolume", "volume": 100})
call(sock_path, {"command": "enqueue", "items": [tone], "replace": True, "play": True})
time.sleep(3)
for volume in [50, 100, 25, 80]:
    at = len(recorded) // 4
    reply = call(sock_path, {"command": "changeVolume", "volume": volume})
    time.sleep(1.5)
    frames = len(recorded) // 4
    left = left_channel(frames)
    before = level(left, at - 4410, at)
    after = level(left, frames - 4410, frames)
    middle = (before + after) / 2
    crossed = None
    for start in range(at, frames - 44, 44):
        peak = level(left, start, start + 44)
        if (after < before and peak < middle) or (after > before and peak > middle):
            crossed = start
            break
    if crossed is None or reply.get("status") != "success":
        print(json.dumps({"volume": volume, "error": "no change found in the recording", "reply": reply}))
        continue
    step = max(abs(left[f + 1] - left[f]) for f in range(max(at, crossed - 4410), crossed + 441))
    slope = max(abs(left[f + 1] - left[f]) for f in range(at - 4410, at - 10))
    slope = max(slope, max(abs(left[f + 1] - left[f]) for f in range(frames - 4410, frames - 10)))
    print(json.dumps({
        "volume": volume, "heardMs": round((crossed - at) / 44.1, 1), "levelBefore": before, "levelAfter": after,
        "step": step, "toneSlope": slope}))
call(sock_path, {"command": "stop"})
call(sock_path, {"command": "changeVolume", "volume": 100})
recording.stop()
if len(sys.argv) > 4:
    with open(sys.argv[4], "wb") as dump:
        dump.write(recorded)
