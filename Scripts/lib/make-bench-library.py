#!/usr/bin/python3
"""Writes COUNT small MP3 files with distinct ID3v2.3 tags under DIR, as ARTIST/ALBUM/NN TITLE.mp3
(2,000 artists, five albums each, ten tracks an album for 100,000 files): the library the bench
indexes with playbackd and with MPD. Each file is TEMPLATE (a short MP3) behind its own tag.

    make-bench-library.py DIR COUNT TEMPLATE
"""
import os
import struct
import sys

root, count, template = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()


def frame(identifier, text):
    data = b"\x00" + text.encode("latin-1")
    return identifier.encode() + struct.pack(">I", len(data)) + b"\x00\x00" + data


def syncsafe(size):
    return bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])


for index in range(count):
    album_index, track = divmod(index, 10)
    artist = "Artist %04d" % (album_index // 5)
    album = "Album %05d" % album_index
    title = "Title %06d" % index
    frames = (frame("TIT2", title) + frame("TPE1", artist) + frame("TALB", album)
              + frame("TRCK", str(track + 1)) + frame("TYER", str(1960 + album_index % 60))
              + frame("TCON", ("Rock", "Jazz", "Pop", "Folk")[album_index % 4]))
    folder = os.path.join(root, artist, album)
    if track == 0:
        os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "%02d %s.mp3" % (track + 1, title)), "wb") as out:
        out.write(b"ID3\x03\x00\x00" + syncsafe(len(frames)) + frames + template)
