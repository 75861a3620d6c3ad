#!/usr/bin/python3
"""The HTTP server of the stream tests: the fixtures directory over HTTP (or HTTPS), with
Range requests, an Icecast-style live stream with ICY metadata, and each fault a network
source can have. Listens on 127.0.0.1 on a port the kernel chooses and prints it, then one
line per event (a title sent, a request) on standard output.

Paths:
  /files/NAME                 the file; honours Range (Accept-Ranges: bytes)
  /norange/NAME               the file; ignores Range and says nothing of it
  /drop/NAME                  the file; a response that would cross its middle byte N is cut
                              there (prints "cut N")
  /live/NAME?metaint=N&titles=A|B&every=S&rate=BYTES
                              NAME sent forever (looped) at RATE bytes/s, a metadata block
                              every N bytes, its title changing from one of TITLES to the
                              next every S seconds; prints "title T" as a block first carries T
  /livedrop/NAME?...&after=S  as /live, the connection closed after S seconds (2), every time
  /once/NAME                  the file to the first request without Range and to every Range
                              request; a later request without Range stalls
  /status/CODE                that HTTP status
  /html                       a web page
  /garbage                    random bytes as audio/mpeg
  /stall                      headers, then nothing
  /silent                     nothing at all
  /endless                    header lines without end
  /redirect/N/REST            N redirects, then /REST
"""

import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

ROOT = sys.argv[1]
TLS = sys.argv[2:4] if len(sys.argv) >= 4 else None
lock = threading.Lock()
served = set()


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = url.path.split("/", 2)
        kind = parts[1] if len(parts) > 1 else ""
        name = parts[2] if len(parts) > 2 else ""
        say("request %s range=%s ua=%s icy=%s auth=%s" % (url.path, self.headers.get("Range"),
            self.headers.get("User-Agent"), self.headers.get("Icy-MetaData"),
            (self.headers.get("Authorization") or "none").split(" ")[0]))
        try:
            if kind == "files":
                self.send_file(name, ranges=True)
            elif kind == "norange":
                self.send_file(name, ranges=False)
            elif kind == "drop":
                self.send_file(name, ranges=True, cut=True)
            elif kind in ("live", "livedrop"):
                self.send_live(name, query, kind == "livedrop")
            elif kind == "once":
                with lock:
                    first = name not in served or self.headers.get("Range") is not None
                    served.add(name)
                if not first:
                    time.sleep(120)
                self.send_file(name, ranges=True)
            elif kind == "status":
                self.send_response(int(name))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "html":
                body = b"<html><body>Not found, but friendly</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif kind == "garbage":
                body = os.urandom(200000)
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif kind == "stall":
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg")
                self.end_headers()
                self.wfile.flush()
                time.sleep(120)
            elif kind == "silent":
                time.sleep(120)
            elif kind == "endless":
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for index in range(1000000):
                    self.wfile.write(b"X-Filler-%d: %s\r\n" % (index, b"x" * 100))
            elif kind == "redirect":
                count, _, rest = name.partition("/")
                target = "/redirect/%d/%s" % (int(count) - 1, rest) if int(count) > 1 else "/" + rest
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def send_file(self, name, ranges, cut=False):
        path = os.path.join(ROOT, os.path.basename(name))
        if not os.path.isfile(path):
            return self.send_error(404)
        data = open(path, "rb").read()
        start = 0
        asked = self.headers.get("Range")
        if ranges and asked and asked.startswith("bytes="):
            first = asked[6:].split("-")[0]
            start = int(first) if first else 0
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        if ranges:
            self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "audio/mpeg" if path.endswith(".mp3") else "application/octet-stream")
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        body = data[start:]
        if cut and start < len(data) // 2:
            say("cut %d" % (len(data) // 2))
            self.wfile.write(data[start : len(data) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        self.wfile.write(body)

    def send_live(self, name, query, drops):
        data = open(os.path.join(ROOT, os.path.basename(name)), "rb").read()
        metaint = int(query.get("metaint", "8192"))
        titles = query.get("titles", "Live").split("|")
        every = float(query.get("every", "1000"))
        rate = float(query.get("rate", "16000"))
        wants_metadata = self.headers.get("Icy-MetaData") == "1"
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("icy-name", query.get("station", "Test Radio"))
        if wants_metadata:
            self.send_header("icy-metaint", str(metaint))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        began = time.monotonic()
        sent = 0
        offset = 0
        last_title = None
        after = float(query.get("after", "2"))
        while not drops or time.monotonic() - began < after:
            chunk = bytearray()
            while len(chunk) < metaint:
                take = min(metaint - len(chunk), len(data) - offset)
                chunk += data[offset : offset + take]
                offset = (offset + take) % len(data)
            ahead = sent / rate - (time.monotonic() - began)
            if ahead > 0:
                time.sleep(ahead)
            self.wfile.write(bytes(chunk))
            sent += len(chunk)
            if wants_metadata:
                title = titles[int((time.monotonic() - began) / every) % len(titles)]
                if title != last_title:
                    text = ("StreamTitle='%s';StreamUrl='';" % title).encode()
                    text += b"\0" * (-len(text) % 16)
                    self.wfile.write(bytes([len(text) // 16]) + text)
                    say("title %s %.3f" % (title, time.time()))
                    last_title = title
                else:
                    self.wfile.write(b"\0")
            self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if TLS:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(TLS[0], TLS[1])
    server.socket = context.wrap_socket(server.socket, server_side=True)
say("port %d" % server.server_address[1])
server.serve_forever()
