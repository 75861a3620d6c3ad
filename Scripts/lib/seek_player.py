"""The player fifo-seek.py and pulse-seek.py seek in: the daemon through its socket, or mpg123
in remote-control mode on the same device."""
import socket
import subprocess


class SeekPlayer:
    """Plays MP3 and jumps between its 30th and 5th second. `player` is "playbackd" (with
    `sock`, the daemon's socket; it plays on its own device) or "mpg123" (with `output`, its
    output options, e.g. ["-o", "pulse"])."""

    def __init__(self, player, mp3, sock=None, output=()):
        self._mpg = None
        if player == "playbackd":
            self._client = socket.socket(socket.AF_UNIX)
            self._client.connect(sock)
            self._replies = self._client.makefile("rb")
            self._request('{"command":"enqueue","items":["%s"],"replace":true,"play":true}' % mp3)
        else:
            self._mpg = subprocess.Popen(["mpg123", "-R", *output], stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self._request("LOAD " + mp3)

    def _request(self, line):
        if self._mpg:
            self._mpg.stdin.write((line + "\n").encode())
            self._mpg.stdin.flush()
        else:
            self._client.sendall((line + "\n").encode())
            self._replies.readline()

    def seek(self):
        """To the 30th second."""
        self._request("JUMP 30s" if self._mpg else '{"command":"changePlaybackPosition","position":30}')

    def back(self):
        """To the 5th second."""
        self._request("JUMP 5s" if self._mpg else '{"command":"changePlaybackPosition","position":5}')

    def stop(self):
        if self._mpg:
            self._mpg.kill()
