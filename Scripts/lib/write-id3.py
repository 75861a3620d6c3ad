#!/usr/bin/env python3
"""Writes an ID3v2.2, 2.3 or 2.4 tag in front of an untagged MP3, with every text frame in one
chosen encoding and optional pictures, so the tests know exactly which bytes a tag holds.

  write-id3.py VERSION ENCODING SRC DST [--text ID=VALUE]... [--txxx DESCRIPTION=VALUE]...
               [--picture TYPE:MIME:FILE]...

VERSION is 2, 3 or 4; ENCODING latin1, utf16 (with BOM), utf16be (2.4) or utf8 (2.4). IDs are
the 2.3/2.4 names (TIT2, TPE1, ...); for 2.2 they are mapped to the three-letter names.
"""
import struct
import sys

V22 = {"TIT2": "TT2", "TPE1": "TP1", "TALB": "TAL", "TPE2": "TP2", "TRCK": "TRK", "TPOS": "TPA",
       "TCON": "TCO", "TYER": "TYE", "TCOM": "TCM", "TDRC": "TYE"}
ENCODINGS = {"latin1": (0, "latin-1", b"\0"), "utf16": (1, "utf-16", b"\0\0"),
             "utf16be": (2, "utf-16-be", b"\0\0"), "utf8": (3, "utf-8", b"\0")}


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def frame(version, frame_id, body):
    if version == 2:
        return V22[frame_id].encode() + struct.pack(">I", len(body))[1:] + body if frame_id in V22 \
            else b"PIC" + struct.pack(">I", len(body))[1:] + body
    size = syncsafe(len(body)) if version == 4 else struct.pack(">I", len(body))
    return frame_id.encode() + size + b"\0\0" + body


def main():
    version, encoding, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    code, codec, terminator = ENCODINGS[encoding]
    frames = b""
    args = sys.argv[5:]
    while args:
        option, value = args[0], args[1]
        args = args[2:]
        if option == "--text":
            frame_id, text = value.split("=", 1)
            frames += frame(version, frame_id, bytes([code]) + text.encode(codec))
        elif option == "--txxx":
            description, text = value.split("=", 1)
            body = bytes([code]) + description.encode(codec) + terminator + text.encode(codec)
            frames += frame(version, "TXXX", body)
        elif option == "--picture":
            kind, mime, path = value.split(":", 2)
            data = open(path, "rb").read()
            description = "cover".encode(codec) + terminator
            if version == 2:
                image_format = b"PNG" if mime == "image/png" else b"JPG"
                body = bytes([code]) + image_format + bytes([int(kind)]) + description + data
            else:
                body = bytes([code]) + mime.encode("latin-1") + b"\0" + bytes([int(kind)]) + description + data
            frames += frame(version, "APIC", body)
    padding = b"\0" * 64
    header = b"ID3" + bytes([version, 0, 0]) + syncsafe(len(frames) + len(padding))
    audio = open(src, "rb").read()
    open(dst, "wb").write(header + frames + padding + audio)


main()
