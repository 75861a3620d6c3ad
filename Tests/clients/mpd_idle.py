#!/usr/bin/python3
"""An MPD client made with python-mpd2 (Debian's python3-mpd), for the tests: connects to
SOCKET, then for each line read from stdin (a subsystem list, or empty for all) calls idle()
and prints the changes it returned, one line each time: "CHANGES SECONDS" where SECONDS is
the time from the idle() call to its return. Prints "ready" once connected."""
import sys
import time

import mpd

client = mpd.MPDClient()
client.connect(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    subsystems = line.split()
    start = time.monotonic()
    changes = client.idle(*subsystems)
    print(",".join(sorted(changes)), "%.4f" % (time.monotonic() - start), flush=True)
client.disconnect()
