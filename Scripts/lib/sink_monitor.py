"""What the bench's recordings of a sound server share (rate-switch.py, volume-switch.py): a
recording of a PulseAudio sink's monitor as 16-bit stereo at 44.1 kHz, and one request to the
daemon's socket."""
import json
import socket
import subprocess
import threading


class MonitorRecording:
    """Records SINK's monitor with parec (5 ms blocks) into `data`, on a thread of its own."""

    def __init__(self, sink="nullsink"):
        self.data = bytearray()
        self._parec = subprocess.Popen(
            ["parec", "-d", sink + ".monitor", "--format=s16le", "--rate=44100", "--channels=2",
             "--latency-msec=5"],
            stdout=subprocess.PIPE)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while chunk := self._parec.stdout.read(1024):
            self.data.extend(chunk)

    @property
    def frames(self):
        return len(self.data) // 4

    def stop(self):
        self._parec.terminate()


def call(sock_path, request):
    """Sends one request on a new connection; the reply."""
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(sock_path)
        client.sendall((json.dumps(request) + "\n").encode())
        return json.loads(client.makefile().readline())
