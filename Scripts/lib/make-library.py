#!/usr/bin/python3
"""Makes the music library the library tests index, in DIR: short tones encoded by each
format's reference encoder and tagged with mutagen (as a tagger would), covering what the
library must get right: accented names, a compilation, two albums of one title by different
artists, a song by two artists, an album on two discs, an untagged file, a corrupt one and a
folder cover. Deterministic (sox -R): the same files on every machine.

    make-library.py DIR
"""
import os
import subprocess
import sys

from mutagen.flac import FLAC
from mutagen.id3 import ID3, TALB, TCON, TDRC, TIT2, TPE1, TPE2, TPOS, TRCK
from mutagen.mp4 import MP4
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis

root = sys.argv[1]
frequency = 200


def tone(path, seconds=1.0, rate=44100):
    """A stereo tone of its own frequency, as WAV, for an encoder to read."""
    global frequency
    frequency += 37
    wav = path + ".wav"
    subprocess.run(["sox", "-R", "-n", "-r", str(rate), "-c", "2", "-b", "16", wav, "synth", str(seconds),
                    "sine", str(frequency), "vol", "0.4"], check=True)
    return wav


def encode(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    extension = path.rsplit(".", 1)[1]
    wav = tone(path, rate=48000 if extension == "opus" else 44100)
    command = {
        "mp3": ["lame", "--quiet", "-b", "128", wav, path],
        "flac": ["flac", "--silent", "-f", "-o", path, wav],
        "ogg": ["oggenc", "-Q", "-o", path, wav],
        "opus": ["opusenc", "--quiet", wav, path],
        "m4a": ["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "96k", path],
    }[extension]
    subprocess.run(command, check=True)
    os.remove(wav)


def vorbis_style(path, tags):
    """FLAC, Ogg Vorbis and Opus take the same comments; a list repeats the comment."""
    kind = {"flac": FLAC, "ogg": OggVorbis, "opus": OggOpus}[path.rsplit(".", 1)[1]]
    audio = kind(path)
    for key, value in tags.items():
        audio[key] = value if isinstance(value, list) else [value]
    audio.save()


def song(relative, **tags):
    path = os.path.join(root, relative)
    encode(path)
    extension = path.rsplit(".", 1)[1]
    if extension == "mp3":
        id3 = ID3()
        frames = {"title": TIT2, "artist": TPE1, "albumartist": TPE2, "album": TALB, "tracknumber": TRCK,
                  "discnumber": TPOS, "genre": TCON, "date": TDRC}
        for key, value in tags.items():
            id3.add(frames[key](encoding=3, text=value if isinstance(value, list) else [value]))
        id3.save(path, v2_version=4)
    elif extension == "m4a":
        audio = MP4(path)
        atoms = {"title": "\xa9nam", "artist": "\xa9ART", "albumartist": "aART", "album": "\xa9alb",
                 "genre": "\xa9gen", "date": "\xa9day"}
        for key, value in tags.items():
            if key == "tracknumber":
                audio["trkn"] = [(int(value), 0)]
            elif key == "discnumber":
                audio["disk"] = [(int(value), 0)]
            else:
                audio[atoms[key]] = value if isinstance(value, list) else [value]
        audio.save()
    else:
        vorbis_style(path, {key.upper(): value for key, value in tags.items()})


song("Beyoncé/Lemonade/01 Pray You Catch Me.mp3", title="Pray You Catch Me", artist="Beyoncé",
     album="Lemonade", tracknumber="1", date="2016", genre="R&B")
song("Beyoncé/Lemonade/02 Hold Up.mp3", title="Hold Up", artist="Beyoncé", album="Lemonade", tracknumber="2",
     date="2016", genre="R&B")
song("Sigur Rós/Ágætis byrjun/01 Svefn-g-englar.flac", title="Svefn-g-englar", artist="Sigur Rós",
     album="Ágætis byrjun", tracknumber="1", date="1999", genre="Post-Rock")
song("Sigur Rós/Ágætis byrjun/02 Starálfur.flac", title="Starálfur", artist="Sigur Rós", album="Ágætis byrjun",
     tracknumber="2", date="1999", genre="Post-Rock")
song("Compilations/Now/01 Song A.ogg", title="Song A", artist="Alpha Band", albumartist="Various Artists",
     album="Now That's Music", tracknumber="1", date="2001", genre="Pop")
song("Compilations/Now/02 Song B.ogg", title="Song B", artist="Beta Singer", albumartist="Various Artists",
     album="Now That's Music", tracknumber="2", date="2001", genre="Pop")
song("Queen/Greatest Hits/01 Bohemian Rhapsody.opus", title="Bohemian Rhapsody", artist="Queen",
     album="Greatest Hits", tracknumber="1", date="1981", genre="Rock")
song("ABBA/Greatest Hits/01 Waterloo.m4a", title="Waterloo", artist="ABBA", album="Greatest Hits",
     tracknumber="1", date="1975", genre="Pop")
song("Daft Punk/Random Access Memories/08 Get Lucky.flac", title="Get Lucky",
     artist=["Daft Punk", "Pharrell Williams"], album="Random Access Memories", tracknumber="8", date="2013",
     genre="Disco")
# Two discs, tagged out of order against the file names, to be played disc by disc.
song("Pink Floyd/The Wall/2-01 Hey You.flac", title="Hey You", artist="Pink Floyd", album="The Wall",
     discnumber="2", tracknumber="1", date="1979", genre="Rock")
song("Pink Floyd/The Wall/1-02 The Thin Ice.flac", title="The Thin Ice", artist="Pink Floyd", album="The Wall",
     discnumber="1", tracknumber="2", date="1979", genre="Rock")
song("Pink Floyd/The Wall/1-01 In the Flesh.flac", title="In the Flesh?", artist="Pink Floyd", album="The Wall",
     discnumber="1", tracknumber="1", date="1979", genre="Rock")
# No tags at all: the title is the file name.
encode(os.path.join(root, "Loose/untagged tune.mp3"))
# Not audio at all.
os.makedirs(os.path.join(root, "Broken"), exist_ok=True)
with open(os.path.join(root, "Broken/broken.flac"), "wb") as broken:
    broken.write(b"fLaC" + bytes(range(256)) * 8)
# A folder cover beside the album.
with open(os.path.join(root, "Pink Floyd/The Wall/cover.jpg"), "wb") as cover:
    cover.write(open(os.path.join(os.path.dirname(root.rstrip("/")), "front.jpg"), "rb").read())
