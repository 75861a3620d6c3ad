#!/usr/bin/env python3
"""How soon a seek is heard on PulseAudio, for Scripts/bench: what the null sink plays,
recorded from its monitor (parec, 5 ms blocks; the recording runs a few milliseconds behind,
so the times are upper bounds).

    pulse-seek.py MP3 playbackd SOCKET
    pulse-seek.py MP3 mpg123

MP3 is the sequence of one-second tones fifo-seek.py plays (second s at 200 + 50 s Hz). Plays
it, and three times seeks from about 5 s into it to 30 s: the time from the request until a
20 ms block of the recording has the 30th second's tone (counted by its zero crossings). The
daemon must play on the sink (the `pulseaudio` device); mpg123 plays with `-o pulse`. Prints the
median and the three, in milliseconds."""
import struct, sys, time

from seek_player import SeekPlayer
from sink_monitor import MonitorRecording

mp3, kind = sys.argv[1], sys.argv[2]
recording = MonitorRecording()
recorded = recording.data
player = SeekPlayer(kind, mp3, sock=sys.argv[3] if kind == "playbackd" else None, output=["-o", "pulse"])


def crossings(frame):
    """Zero crossings of the left channel in the 20 ms block from `frame`."""
    left = struct.unpack("<%dh" % 1764, bytes(recorded[4 * frame:4 * (frame + 882)]))[0::2]
    return sum(1 for a, b in zip(left, left[1:]) if (a < 0) != (b < 0))


# The 30th second's tone, 1700 Hz: 68 crossings in 20 ms; the 5th's, 450 Hz: 18.
results = []
time.sleep(5)
for _ in range(3):
    at = len(recorded) // 4
    player.seek()
    time.sleep(1.5)
    frames = len(recorded) // 4
    heard = next((f for f in range(at, frames - 882, 44) if crossings(f) >= 60), None)
    results.append((heard - at) / 44.1 if heard is not None else 10000.0)
    player.back()
    time.sleep(3)
player.stop()
recording.stop()
print("%.1f (%s)" % (sorted(results)[1], ", ".join("%.1f" % r for r in results)))
