#!/usr/bin/python3
"""The position playbackd reports against what a snapclient's file holds at the same moment
(Scripts/bench, section 9b). Run while a 48 kHz noise item plays through Snapcast:
    snapcast-position.py PLAYBACKCTL SOCKET CAPTURE CLIENT_PID REFERENCE MARKS
At each of MARKS moments 4 s apart it takes the extrapolated position from `playbackctl --json
status` and the capture's length; then it stops the client (SIGTERM, so its file is complete)
and finds where in the reference (`mpg123 --gapless -s`, 48 kHz s16 stereo) the capture's
last 100 ms were, within 1 s of the reported position. snapclient's file player writes 50 ms
blocks 10 ms before they are due, so the end of its file runs 10 - 60 ms (35 on average) ahead
of what is heard. Prints `MIN MAX MEAN` of (file end - reported position - 35 ms), in ms.
The client must be fresh: its file player stops with every stream that stops and starts
again with the next, and only from its start does its file's length follow the clock (after
six streams had come and gone, the same measure spread over -711 to +385 ms)."""
import json, os, signal, subprocess, sys, time
import numpy as np

ctl, socket, capture, client, reference, marks = sys.argv[1:7]
rate, window, lead = 48000, 4800, 0.035
moments = []
for _ in range(int(marks)):
    time.sleep(4)
    line = subprocess.run([ctl, "--socket", socket, "--json", "status"], capture_output=True, text=True).stdout
    now_playing = json.loads(line)["nowPlaying"]
    now = time.time()
    frames = os.path.getsize(capture) // 4
    moments.append((frames, now_playing["elapsed"] + now_playing["rate"] * (now - now_playing["timestamp"])))
os.kill(int(client), signal.SIGTERM)
for _ in range(100):
    if not os.path.exists(f"/proc/{client}") or open(f"/proc/{client}/stat").read().split()[2] == "Z":
        break
    time.sleep(0.05)
heard = np.fromfile(capture, dtype=np.int16).reshape(-1, 2)[:, 0].astype(float)
ref = np.fromfile(reference, dtype=np.int16).reshape(-1, 2)[:, 0].astype(float)
errors = []
for frames, reported in moments:
    tail = heard[frames - window:frames]
    # The reference's windows ending within 1 s of the reported position, scored by their
    # normalised correlation with the capture's last window.
    guess = int(reported * rate)
    start = max(0, guess - rate - window)
    segment = ref[start:min(len(ref), guess + rate)]
    products = np.correlate(segment, tail, mode="valid")
    energy = np.convolve(segment * segment, np.ones(window), mode="valid")
    scores = products / (np.sqrt(energy * (tail @ tail)) + 1e-9)
    best = start + int(np.argmax(scores)) + window
    errors.append((best / rate - reported - lead) * 1000)
    if os.environ.get("SNAPCAST_POSITION_DEBUG"): print(frames, reported, best / rate, float(scores.max()), file=sys.stderr)
print("%.1f %.1f %.1f" % (min(errors), max(errors), sum(errors) / len(errors)))
