#!/usr/bin/env python3
"""How soon a playback-rate change is heard, and the step it leaves, from what PulseAudio plays.

Usage: rate-switch.py SOCKET TONE.mp3   (the daemon plays to PulseAudio's `nullsink`)

Records the sink's monitor with parec, plays TONE (a full-scale-ish sine, e.g. 1 kHz at half
scale) and changes the rate four times. For each change, from the frame the recording had
reached when the request was sent: when the old audio stopped (a run of 12 quiet frames), when
the new audio is back at 3/4 of the tone's level, and the largest step between two samples
around the switch beside the largest one in the tone before it (its own slope). The recording
runs a few milliseconds behind the sink (parec's 5 ms latency), so the times are upper bounds.
"""
import json
import struct
import sys
import time

from sink_monitor import MonitorRecording, call

sock_path, tone = sys.argv[1], sys.argv[2]
recording = MonitorRecording()
recorded = recording.data


time.sleep(0.5)
call(sock_path, {"command": "enqueue", "items": [tone], "replace": True, "play": True})
time.sleep(3)
for rate in [1.5, 2.0, 1.0, 1.25]:
    at = len(recorded) // 4
    call(sock_path, {"command": "changePlaybackRate", "rate": rate})
    time.sleep(1.5)
    frames = len(recorded) // 4
    left = struct.unpack("<%dh" % (2 * frames), bytes(recorded[:4 * frames]))[0::2]
    quiet, stopped, back = 0, None, None
    for frame in range(at, frames):
        quiet = quiet + 1 if abs(left[frame]) < 1500 else 0
        if quiet >= 12:
            stopped = frame - quiet + 1
            break
    level = max(abs(s) for s in left[at - 4410:at])
    if stopped is not None:
        back = next((f for f in range(stopped, frames) if abs(left[f]) > level * 3 // 4), None)
    if back is None:
        print(json.dumps({"rate": rate, "error": "no switch found in the recording"}))
        continue
    step = max(abs(left[f + 1] - left[f]) for f in range(stopped - 200, back + 200))
    slope = max(abs(left[f + 1] - left[f]) for f in range(at - 4410, at - 10))
    print(json.dumps({
        "rate": rate, "stoppedMs": round((stopped - at) / 44.1, 1), "heardMs": round((back - at) / 44.1, 1),
        "step": step, "toneSlope": slope}))
call(sock_path, {"command": "stop"})
call(sock_path, {"command": "changePlaybackRate", "rate": 1})
recording.stop()
