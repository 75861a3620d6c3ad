#!/usr/bin/python3
"""A ListenBrainz stand-in for the scrobbling tests, written from ListenBrainz's API
documentation (POST /1/submit-listens, "Payload JSON details", "Rate limiting"). It checks
every rule the documentation states and answers as the service does: 200 {"status": "ok"},
400 with the rule broken, 401 for a wrong token, 429 past the rate limit, with the
X-RateLimit-* headers on every answer.

Usage: listenbrainz_server.py TOKEN [PORT]. Listens on 127.0.0.1 (PORT, or one the kernel
chooses) and prints "port N", then one JSON line per request to the API:
  {"event": "accepted", "type": T, "listens": [...], "agent": UA, "at": SECONDS}
  {"event": "refused", "status": N, "reason": R, "at": SECONDS}
  {"event": "held"} or {"event": "endless"}: a request not answered, or answered without end
Controls (not ListenBrainz's), one line each on standard input, answered "control ok":
status=503 answers every submission with that status until status=200; limit=N&window=S sets
the rate limit (N requests in S seconds); once429=S answers the next submission 429 with
X-RateLimit-Reset-In: S; silent=1 reads requests and never answers; endless=1 answers with a
body that never ends (silent=0, endless=0: answer again).
"""

import json
import re
import sys
import time
from urllib.parse import urlsplit

from standin import JSONHandler, lock, say, serve

TOKEN = sys.argv[1]
PORT = int(sys.argv[2]) if len(sys.argv) > 2 else 0
MAX_LISTENS_PER_REQUEST = 1000
MAX_LISTEN_SIZE = 10240
LISTEN_MINIMUM_TS = 1033430400
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
MBID_KEYS = ("recording_mbid", "release_mbid", "release_group_mbid", "track_mbid")

state = {"status": 200, "limit": 1000, "window": 10.0, "once429": None, "silent": False, "endless": False}
window = {"start": time.time(), "used": 0}



def check_listen(listen, listen_type):
    """The rule a listen breaks, or None."""
    if not isinstance(listen, dict):
        return "a listen must be a JSON object"
    if len(json.dumps(listen).encode()) > MAX_LISTEN_SIZE:
        return "a listen is larger than %d bytes" % MAX_LISTEN_SIZE
    extra = set(listen) - {"listened_at", "track_metadata"}
    if extra:
        return "unexpected keys in a listen: %s" % sorted(extra)
    if listen_type == "playing_now":
        if "listened_at" in listen:
            return "playing_now listens must not have listened_at"
    else:
        stamp = listen.get("listened_at")
        if not isinstance(stamp, int) or isinstance(stamp, bool):
            return "listened_at must be an integer"
        if stamp < LISTEN_MINIMUM_TS:
            return "listened_at is before %d" % LISTEN_MINIMUM_TS
    metadata = listen.get("track_metadata")
    if not isinstance(metadata, dict):
        return "track_metadata is missing"
    for key in ("artist_name", "track_name"):
        if not isinstance(metadata.get(key), str) or not metadata[key].strip():
            return "%s must be a non-empty string" % key
    if "release_name" in metadata and not isinstance(metadata["release_name"], str):
        return "release_name must be a string"
    info = metadata.get("additional_info", {})
    if not isinstance(info, dict):
        return "additional_info must be an object"
    for key in MBID_KEYS:
        if key in info and not (isinstance(info[key], str) and UUID.match(info[key])):
            return "%s is not a valid MBID" % key
    if "artist_mbids" in info:
        ids = info["artist_mbids"]
        if not isinstance(ids, list) or not all(isinstance(i, str) and UUID.match(i) for i in ids):
            return "artist_mbids must be a list of MBIDs"
    if "duration_ms" in info:
        value = info["duration_ms"]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            return "duration_ms must be a positive integer"
    if "tracknumber" in info and not isinstance(info["tracknumber"], (int, str)):
        return "tracknumber must be a number or a string"
    # What playbackd promises besides the documented rules.
    if info.get("media_player") != "playbackd" or info.get("submission_client") != "playbackd":
        return "media_player and submission_client must name playbackd"
    if not info.get("media_player_version") or not info.get("submission_client_version"):
        return "the player's and client's versions are missing"
    return None


def check(body, listen_type_holder):
    try:
        document = json.loads(body)
    except ValueError:
        return "the body is not JSON"
    if not isinstance(document, dict):
        return "the body must be a JSON object"
    listen_type = document.get("listen_type")
    listen_type_holder.append(listen_type)
    if listen_type not in ("single", "playing_now", "import"):
        return "listen_type must be single, playing_now or import"
    payload = document.get("payload")
    if not isinstance(payload, list) or not payload:
        return "payload must be a non-empty list"
    if listen_type in ("single", "playing_now") and len(payload) != 1:
        return "%s must hold exactly one listen" % listen_type
    if len(payload) > MAX_LISTENS_PER_REQUEST:
        return "too many listens: at most %d" % MAX_LISTENS_PER_REQUEST
    for listen in payload:
        problem = check_listen(listen, listen_type)
        if problem:
            return problem
    return None


class Handler(JSONHandler):

    def rate_headers(self):
        """Counts this request in the window; the headers and whether it is within the limit."""
        with lock:
            now = time.time()
            if now - window["start"] >= state["window"]:
                window["start"], window["used"] = now, 0
            window["used"] += 1
            within = window["used"] <= state["limit"]
            remaining = max(0, state["limit"] - window["used"])
            reset_in = max(0.0, state["window"] - (now - window["start"]))
        headers = [
            ("X-RateLimit-Limit", str(state["limit"])),
            ("X-RateLimit-Remaining", str(remaining)),
            ("X-RateLimit-Reset-In", "%d" % max(1, round(reset_in + 0.4999))),
            ("X-RateLimit-Reset", str(int(now + reset_in))),
        ]
        return headers, within

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if state["silent"]:
            say({"event": "held"})
            time.sleep(3600)
            return
        if state["endless"]:
            say({"event": "endless"})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b" " * 65536)
            except OSError:
                return
        if urlsplit(self.path).path != "/1/submit-listens":
            return self.answer(404, {"code": 404, "error": "not found"})
        headers, within = self.rate_headers()
        with lock:
            once429, state["once429"] = state["once429"], None
            status = state["status"]
        if once429 is not None:
            say({"event": "refused", "status": 429, "reason": "told to", "reset_in": once429})
            return self.answer(
                429, {"code": 429, "error": "rate limit exceeded"},
                [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset-In", "%g" % once429)])
        if not within:
            say({"event": "refused", "status": 429, "reason": "past the rate limit"})
            return self.answer(429, {"code": 429, "error": "rate limit exceeded"}, headers)
        if status != 200:
            say({"event": "refused", "status": status, "reason": "told to"})
            return self.answer(status, {"code": status, "error": "unavailable"}, headers)
        if self.headers.get("Authorization") != "Token " + TOKEN:
            say({"event": "refused", "status": 401, "reason": "invalid token"})
            return self.answer(401, {"code": 401, "error": "Invalid authorization token."}, headers)
        agent = self.headers.get("User-Agent", "")
        listen_type = []
        problem = None if re.match(r"^playbackd/\S+", agent) else "the User-Agent does not name playbackd"
        problem = problem or check(body, listen_type)
        if (self.headers.get("Content-Type") or "").split(";")[0] != "application/json":
            problem = problem or "the Content-Type is not application/json"
        if problem:
            say({"event": "refused", "status": 400, "reason": problem})
            return self.answer(400, {"code": 400, "error": problem}, headers)
        document = json.loads(body)
        say({"event": "accepted", "type": listen_type[0], "listens": document["payload"], "agent": agent})
        self.answer(200, {"status": "ok"}, headers)


def apply(query):
    if "status" in query:
        state["status"] = int(query["status"])
    if "limit" in query:
        state["limit"] = int(query["limit"])
        state["window"] = float(query.get("window", "1"))
        window["start"], window["used"] = time.time(), 0
    if "once429" in query:
        state["once429"] = float(query["once429"])
    if "silent" in query:
        state["silent"] = query["silent"] == "1"
    if "endless" in query:
        state["endless"] = query["endless"] == "1"


serve(Handler, PORT, apply)
