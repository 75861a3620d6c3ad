#!/usr/bin/env python3
"""Pitch and artifacts of a stretched two-tone file (261.63 Hz left, 392 Hz right).

Usage: stretch-artifacts.py FILE   (a WAV file, or raw 16-bit stereo 44.1 kHz ending in .raw)
Prints the output's length, then per channel the FFT's peak frequency and the energy outside
±2 % of the tone, relative to all of it, over 8 s from a quarter of the way in.
"""
import sys
import wave

import numpy as np


def load(path):
    if path.endswith(".raw"):
        data = np.fromfile(path, dtype="<i2")
    else:
        with wave.open(path) as w:
            data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return data.reshape(-1, 2).astype(float)


samples = load(sys.argv[1])
start = len(samples) // 4
segment = samples[start:start + 44100 * 8]
report = [f"{len(samples) / 44100:.2f} s"]
for channel, tone in [(0, 261.63), (1, 392.0)]:
    spectrum = np.abs(np.fft.rfft(segment[:, channel] * np.hanning(len(segment)))) ** 2
    frequencies = np.fft.rfftfreq(len(segment), 1 / 44100)
    near = spectrum[(frequencies > tone * 0.98) & (frequencies < tone * 1.02)].sum()
    artifacts = 10 * np.log10(max(1e-20, (spectrum.sum() - near) / spectrum.sum()))
    report.append(f"{frequencies[np.argmax(spectrum)]:.2f} Hz, artifacts {artifacts:.1f} dB")
print("; ".join(report))
