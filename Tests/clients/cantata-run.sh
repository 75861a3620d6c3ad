#!/bin/sh
# cantata-run.sh HOME SHOT: Cantata (Debian's 2.5) under Xvfb, with HOME's configuration (its
# MPD server), on a session bus of its own, until its library database holds songs (at most
# 60 s) and its queue is drawn; then a screenshot of the screen as SHOT (PNG, from Xvfb's frame
# buffer) and Cantata stopped. Its MPD debug log (what it sent and read) goes to stdout.
set -eu
home=$1 shot=$2
frames="$home/frames"  # Xvfb's frame buffer, in the test's own directory
mkdir -p "$frames"
export HOME="$home" XDG_RUNTIME_DIR="$home/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24 -fbdir $frames" sh -c '
    frames=$1 shot=$2
    cantata -d mpd 2>&1 &
    cantata=$!
    for _ in $(seq 600); do
        for db in "$HOME"/.local/share/cantata/library/*.sql; do
            [ -f "$db" ] && [ "$(sqlite3 "$db" "SELECT count(*) FROM songs" 2>/dev/null || echo 0)" -gt 0 ] && break 2
        done
        sleep 0.1
    done
    ffmpeg -loglevel error -y -f xwd_pipe -i "$frames/Xvfb_screen0" "$shot" || true
    kill $cantata; wait $cantata || true
' sh "$frames" "$shot"
