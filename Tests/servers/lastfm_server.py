#!/usr/bin/python3
"""A Last.fm stand-in for the scrobbling tests, written from Last.fm's API documentation
(API 2.0: "Authentication: desktop application how-to", "Signing calls", auth.getToken,
auth.getSession, track.updateNowPlaying, track.scrobble). Every call is checked as the
documentation states: a POST of form fields to the API root, a known api_key, an api_sig
that is the MD5 of the other parameters (but format and callback) sorted by name, each name
then its value, then the secret; the session key for track calls; each method's required
parameters; at most 50 scrobbles a batch, numbered from 0 without a gap. A broken rule is
answered with the error code the documentation gives (JSON: {"error": N, "message": M}).

Usage: lastfm_server.py API_KEY SECRET [PORT]. Prints "port N", then one JSON line per call:
  {"event": "accepted", "method": M, "params": {...}, "at": SECONDS}
  {"event": "refused", "method": M, "error": N, "reason": R, "at": SECONDS}
The page where a user allows an application is GET /auth/?api_key=K&token=T (it says so);
the tests allow a token with the control line "approve=T" on standard input (answered
"control"). "nowplaying503=1" answers the next track.updateNowPlaying with HTTP 503.
"""

import hashlib
import secrets
import sys
from urllib.parse import parse_qs, urlsplit

from standin import JSONHandler, lock, say, serve

API_KEY, SECRET = sys.argv[1], sys.argv[2]
PORT = int(sys.argv[3]) if len(sys.argv) > 3 else 0
MAX_SCROBBLES = 50
tokens = {}  # token -> "issued" | "approved" | "used"
sessions = set()
state = {"nowplaying503": False}



def signature(params):
    text = "".join(k + params[k] for k in sorted(params) if k not in ("format", "callback", "api_sig"))
    return hashlib.md5((text + SECRET).encode("utf-8")).hexdigest()


def check_scrobbles(params):
    """The rule a track.scrobble breaks, or None; the batch's size."""
    indexes = set()
    for key in params:
        if "[" in key:
            name, _, rest = key.partition("[")
            if not rest.endswith("]") or not rest[:-1].isdigit():
                return "malformed parameter name %s" % key, 0
            if name not in ("artist", "track", "timestamp", "album", "albumArtist", "trackNumber",
                            "duration", "mbid", "context", "streamId", "chosenByUser"):
                return "unknown parameter %s" % key, 0
            indexes.add(int(rest[:-1]))
        elif key not in ("method", "api_key", "api_sig", "sk", "format"):
            return "unexpected parameter %s" % key, 0
    count = len(indexes)
    if count == 0:
        return "no scrobbles", 0
    if count > MAX_SCROBBLES:
        return "more than %d scrobbles in a batch" % MAX_SCROBBLES, count
    if indexes != set(range(count)):
        return "scrobbles are not numbered 0 to %d" % (count - 1), count
    for i in range(count):
        for required in ("artist", "track", "timestamp"):
            if not params.get("%s[%d]" % (required, i)):
                return "%s[%d] is missing" % (required, i), count
        if not params["timestamp[%d]" % i].isdigit():
            return "timestamp[%d] is not a UNIX timestamp" % i, count
        for number in ("trackNumber", "duration"):
            value = params.get("%s[%d]" % (number, i))
            if value is not None and not value.isdigit():
                return "%s[%d] is not a whole number" % (number, i), count
    return None, count


class Handler(JSONHandler):

    def error(self, method, code, reason):
        say({"event": "refused", "method": method, "error": code, "reason": reason})
        self.answer(400 if code not in (11, 16) else 503, {"error": code, "message": reason})

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path != "/auth/":
            return self.answer(404, {"error": 3, "message": "not found"})
        self.answer(200, {"page": "allow this application"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        if urlsplit(self.path).path != "/2.0/":
            return self.answer(404, {"error": 3, "message": "not the API root"})
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self.error(None, 6, "the body is not form fields")
        fields = parse_qs(body, keep_blank_values=True, strict_parsing=False)
        if any(len(v) != 1 for v in fields.values()):
            return self.error(None, 6, "a parameter is given twice")
        params = {k: v[0] for k, v in fields.items()}
        method = params.get("method")
        if not self.headers.get("User-Agent", "").startswith("playbackd/"):
            return self.error(method, 6, "the User-Agent does not name playbackd")
        if params.get("format") != "json":
            return self.error(method, 6, "format must be json")
        if params.get("api_key") != API_KEY:
            return self.error(method, 10, "Invalid API key")
        if params.get("api_sig") != signature(params):
            return self.error(method, 13, "Invalid method signature supplied")
        if method == "auth.getToken":
            token = secrets.token_hex(16)
            with lock:
                tokens[token] = "issued"
            say({"event": "accepted", "method": method, "params": {}})
            return self.answer(200, {"token": token})
        if method == "auth.getSession":
            token = params.get("token", "")
            with lock:
                status = tokens.get(token)
                if status == "approved":
                    tokens[token] = "used"
                    key = secrets.token_hex(16)
                    sessions.add(key)
            if status is None or status == "used":
                return self.error(method, 15, "This token has expired")
            if status == "issued":
                return self.error(method, 14, "This token has not been authorized")
            say({"event": "accepted", "method": method, "params": {"token": token}})
            return self.answer(200, {"session": {"name": "tester", "key": key, "subscriber": 0}})
        if method not in ("track.updateNowPlaying", "track.scrobble"):
            return self.error(method, 3, "Invalid Method - No method with that name in this package")
        if params.get("sk") not in sessions:
            return self.error(method, 9, "Invalid session key - Please re-authenticate")
        shown = {k: v for k, v in params.items() if k not in ("sk", "api_sig", "api_key")}
        if method == "track.updateNowPlaying":
            with lock:
                refuse, state["nowplaying503"] = state["nowplaying503"], False
            if refuse:
                say({"event": "refused", "method": method, "error": 16, "reason": "told to"})
                return self.answer(503, {"error": 16, "message": "temporarily unavailable"})
            for required in ("artist", "track"):
                if not params.get(required):
                    return self.error(method, 6, "%s is missing" % required)
            for key in params:
                if key not in ("method", "api_key", "api_sig", "sk", "format", "artist", "track", "album",
                               "albumArtist", "trackNumber", "duration", "mbid", "context"):
                    return self.error(method, 6, "unexpected parameter %s" % key)
            say({"event": "accepted", "method": method, "params": shown})
            return self.answer(200, {"nowplaying": {"track": {"#text": params["track"]}}})
        problem, count = check_scrobbles(params)
        if problem:
            return self.error(method, 6, problem)
        say({"event": "accepted", "method": method, "params": shown, "count": count})
        scrobbles = [{"track": {"#text": params["track[%d]" % i]}, "ignoredMessage": {"code": "0", "#text": ""}}
                     for i in range(count)]
        self.answer(200, {"scrobbles": {"@attr": {"accepted": count, "ignored": 0},
                                        "scrobble": scrobbles[0] if count == 1 else scrobbles}})


def apply(query):
    if "approve" in query and query["approve"] in tokens:
        tokens[query["approve"]] = "approved"
    if "nowplaying503" in query:
        state["nowplaying503"] = query["nowplaying503"] == "1"


serve(Handler, PORT, apply)
