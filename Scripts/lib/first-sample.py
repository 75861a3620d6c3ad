#!/usr/bin/python3
"""Seconds from running a command to the first byte in a capture file (the ALSA file plugin's
output: the first sample written to the device). Polls the file's size every millisecond.
  first-sample.py FILE TIMEOUT COMMAND...
The command is left running (its pid on the second line) when it does not exit by itself."""
import os
import subprocess
import sys
import time

path, timeout, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
if os.path.exists(path):
    os.unlink(path)
start = time.monotonic()
process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while time.monotonic() - start < timeout:
    try:
        if os.stat(path).st_size > 0:
            break
    except FileNotFoundError:
        pass
    time.sleep(0.001)
else:
    sys.exit("no sample within %s s" % timeout)
print("%.4f" % (time.monotonic() - start))
print(process.pid)
