"""What the scrobbling services' stand-ins share: the JSON lines they print, JSON answers, and
how they serve (127.0.0.1, "port N" first, control lines from standard input)."""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

lock = threading.Lock()


def say(record):
    """Prints `record` as one JSON line, with the time."""
    record["at"] = time.time()
    with lock:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


class JSONHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, document, extra_headers=()):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra_headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def serve(handler, port, apply):
    """Serves `handler` on 127.0.0.1:`port` (0: any) and prints "port N"; each line of standard
    input is a query string handed to `apply` (holding `lock`), then answered "control"."""

    def control():
        for line in sys.stdin:
            with lock:
                apply({k: v[0] for k, v in parse_qs(line.strip()).items()})
            say({"event": "control", "line": line.strip()})

    threading.Thread(target=control, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()
