#!/usr/bin/env bash
# Inside the container, as the unprivileged test user, against the real user manager: installs
# playbackd's units the way Scripts/install does and checks what a user relies on. Each check
# appends "ok NAME" or "not ok NAME: why" to the results file; the Swift test reads them.
set -uo pipefail
results=/playbackd/results/results
fixture=/playbackd/fixtures/long.mp3
config=$HOME/.config/playbackd/config.toml
ok() { echo "ok $1" >> "$results"; echo "== ok $1"; }
fail() { echo "not ok $1: $2" >> "$results"; echo "== FAILED $1: $2"; }
show() { systemctl --user show playbackd.service -p "$1" --value; }
ctl() { playbackctl --timeout 10 "$@"; }
# Retries COMMAND every 0.1 s for up to SECONDS; true as soon as it succeeds.
within() {
    local tries=$(($1 * 10)); shift
    for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.1; done
    return 1
}
now() { date +%s.%N; }
# Float comparison: true when the awk expression holds (e.g. "1.2 < 2").
holds() { awk "BEGIN { exit !($1) }"; }
# Signals a process that must exist: never PID 0 (the whole process group) or an empty one.
signal_process() { [ "${2:-0}" -gt 0 ] && kill "-$1" "$2"; }
status_has() { systemctl --user status playbackd.service --no-pager 2>&1 | grep -qF "$1"; }
is_playing() { [ "$(ctl status --format '{{state}}' 2>/dev/null)" = playing ]; }
# Playing and heard: the device is open and the position advances (play answers before that).
is_advancing() { [ "$(ctl status --format '{{state}} {{rate}}' 2>/dev/null)" = "playing 1" ]; }
main_pid_is_not() { local pid; pid=$(show MainPID); [ "$pid" != 0 ] && [ "$pid" != "$1" ] && [ "$(show ActiveState)" = active ]; }

cd "$HOME"
# The binaries and units, exactly as Scripts/install places and enables them.
/playbackd/src/Scripts/lib/install-files.sh /playbackd/bin "$HOME/.local"
# A drop-in for the test only: a short watchdog so a stall is seen in seconds, and no core files.
mkdir -p "$HOME/.config/systemd/user/playbackd.service.d"
printf '[Service]\nWatchdogSec=4s\nLimitCORE=0\n' > "$HOME/.config/systemd/user/playbackd.service.d/test.conf"
/playbackd/src/Scripts/lib/enable-units.sh
# A desktop session has its sound server running; here it is the user's real pulseaudio.service
# (with no sound card it plays to its automatic null sink, in real time).
systemctl --user start pulseaudio.service

if ldd "$HOME/.local/bin/playbackd" | grep -qE "not found|/opt/swift"; then
    fail standalone-binaries "$(ldd "$HOME/.local/bin/playbackd" | tr '\n' ' ')"
elif ! playbackd --version >/dev/null || ! playbackctl --version >/dev/null; then
    fail standalone-binaries "the installed binaries do not run without the toolchain"
else
    ok standalone-binaries
fi

# 1. The first command starts the service through the socket and gets its answer.
before=$(show ActiveState)
if [ "$before" != inactive ]; then
    fail socket-activation "the service was $before before the first command"
elif ! out=$(ctl status 2>&1); then
    fail socket-activation "playbackctl status failed: $out"
elif [ "$(show ActiveState)" != active ]; then
    fail socket-activation "the service is $(show ActiveState) after answering"
else
    ok socket-activation
fi

# 2. The status line shows the track while it plays (ALSA's default device, routed to pulse).
ctl enqueue "$fixture" --play
if within 10 status_has 'Status: "Playing: Fixture Artist - Long"'; then
    ok status-line
else
    fail status-line "$(systemctl --user status playbackd.service --no-pager 2>&1 | tr '\n' ' ')"
fi

# 2b. The default device, with the user's sound server running, is the daemon's own libpulse
# stream ("Music"), not ALSA's plugin ("ALSA Playback"): what makes a volume change heard at once.
own_stream() { pactl list sink-inputs 2>/dev/null | grep -q 'media.name = "Music"'; }
if within 10 own_stream && ! pactl list sink-inputs | grep -q 'ALSA'; then
    ok sound-server-stream
else
    fail sound-server-stream "$(pactl list sink-inputs 2>&1 | grep -E 'media.name|application.name' | tr '\n' ' ')"
fi

# 3. reload re-reads the configuration (RELOADING=1, then READY=1: the unit is active again).
pid=$(show MainPID)
mkdir -p "$(dirname "$config")"
echo 'skip-forward-interval = 42' > "$config"
systemctl --user reload playbackd.service
intervals=$(ctl commands --json | python3 -c \
    'import json,sys; print([c.get("preferredIntervals") for c in json.load(sys.stdin)["commands"] if c["command"]=="skipForward"])')
if [ "$(show ActiveState)" != active ] || [ "$(show MainPID)" != "$pid" ]; then
    fail reload "after reload: $(show ActiveState), MainPID $(show MainPID) (was $pid)"
elif [ "$intervals" != "[[42.0]]" ] && [ "$intervals" != "[[42]]" ]; then
    fail reload "skipForward intervals after reload: $intervals"
elif ! is_playing; then
    fail reload "playback was interrupted"
else
    ok reload
fi

# 4. stop exits 0 (about 1 s: the device plays out, then a fade) well inside TimeoutStopSec=5s,
# with the state saved; the next command brings queue and position back.
sleep 2
heard=$(ctl status --format '{{elapsed}}')
# Where this manager put StateDirectory= (~/.config on systemd 252, ~/.local/state from 254).
state_dir=$(tr '\0' '\n' < "/proc/$(show MainPID)/environ" | sed -n 's/^STATE_DIRECTORY=//p')
start=$(now)
systemctl --user stop playbackd.service
took=$(awk "BEGIN { print $(now) - $start }")
if holds "$took >= 5"; then
    fail stop "systemctl --user stop took $took s"
elif [ "$(show Result)" != success ] || [ "$(show ExecMainStatus)" != 0 ]; then
    fail stop "Result=$(show Result) ExecMainStatus=$(show ExecMainStatus)"
elif [ -z "$state_dir" ] || [ ! -s "$state_dir/state.json" ]; then
    fail stop "no state file in STATE_DIRECTORY '$state_dir'"
else
    ok stop
fi
back=$(ctl status --format '{{state}} {{queueCount}} {{title}} {{elapsed}}' 2>&1)
read -r state count title elapsed <<< "$back"
if [ "$state $count $title" != "paused 1 Long" ]; then
    fail resume-after-stop "after the restart: $back"
elif ! holds "${elapsed:-0} >= $heard - 0.5 && ${elapsed:-0} <= $heard + 1.5"; then
    fail resume-after-stop "position $elapsed, heard $heard before the stop"
else
    ok resume-after-stop
fi

# 5. A crash is restarted by systemd, with the queue back.
ctl play
within 10 is_playing
pid=$(show MainPID)
restarts=$(show NRestarts)
signal_process SEGV "$pid"
if ! within 15 main_pid_is_not "$pid"; then
    fail crash-restart "no new process after SIGSEGV: $(show ActiveState) $(show SubState)"
elif [ "$(show NRestarts)" != $((restarts + 1)) ]; then
    fail crash-restart "NRestarts $(show NRestarts), was $restarts"
elif [ "$(ctl status --format '{{queueCount}} {{title}}')" != "1 Long" ]; then
    fail crash-restart "the restarted daemon lost the queue"
else
    ok crash-restart
fi

# 6. A stall: the sound server hangs, the output stops advancing, the daemon withholds the
# watchdog ping, and systemd restarts it. The server is stopped once the audio flows: stopped
# while the stream is still being opened, the open fails and playback is interrupted (and
# tried again), which is no stall.
ctl play
within 10 is_advancing
pid=$(show MainPID)
restarts=$(show NRestarts)
pulse=$(systemctl --user show pulseaudio.service -p MainPID --value)
signal_process STOP "$pulse"
if within 30 main_pid_is_not "$pid"; then stalled_ok=1; else stalled_ok=0; fi
signal_process CONT "$pulse"
if [ "$stalled_ok" != 1 ]; then
    fail watchdog-restart "still PID $(show MainPID) 30 s into the stall"
elif [ "$(show NRestarts)" != $((restarts + 1)) ]; then
    fail watchdog-restart "NRestarts $(show NRestarts), was $restarts"
else
    ok watchdog-restart
fi

# 7. The desktop sees it: the service, hardened as installed, owns the MPRIS name on the user's
# session bus (dbus-user-session's dbus.socket), and the real playerctl controls it.
has_mpris_name() { busctl --user list --acquired 2>/dev/null | grep -q '^org.mpris.MediaPlayer2.playbackd '; }
mpris_playing() { [ "$(playerctl -p playbackd status 2>/dev/null)" = Playing ]; }
ctl pause
if ! within 10 has_mpris_name; then
    fail mpris "org.mpris.MediaPlayer2.playbackd is not on the user bus: $(busctl --user list 2>&1 | tr '\n' ' ')"
elif ! playerctl -p playbackd play || ! within 10 is_playing || ! within 10 mpris_playing; then
    fail mpris "playerctl play did not play: $(ctl status 2>&1 | tr '\n' ' ')"
elif [ "$(playerctl -p playbackd metadata xesam:title)" != Long ]; then
    fail mpris "playerctl metadata: $(playerctl -p playbackd metadata 2>&1 | tr '\n' ' ')"
else
    ok mpris
fi

# 7b. The hardened service (ProtectHome=read-only) saves an equalizer preset where the user's
# configuration lives (ConfigurationDirectory=), and loads it back.
preset=$HOME/.config/playbackd/eq/mine.txt
if ! out=$(ctl eq band 2 -4 2>&1 && ctl eq save mine 2>&1); then
    fail eq-preset "eq save failed under the service: $out"
elif ! grep -q "Filter 2: ON PK Fc 64 Hz Gain -4 dB" "$preset" 2>/dev/null; then
    fail eq-preset "$preset: $(cat "$preset" 2>&1 | tr '\n' ' ')"
elif ! ctl eq reset >/dev/null || ! ctl eq load mine >/dev/null \
    || [ "$(ctl --json eq | grep -o '"preset":"mine"')" != '"preset":"mine"' ]; then
    fail eq-preset "eq load mine: $(ctl --json eq 2>&1)"
else
    ok eq-preset
fi

# 7c. The hardened service reaches the network (RestrictAddressFamilies= lets AF_INET through):
# an MP3 served over HTTP on the loopback enqueues and plays.
/usr/bin/python3 /playbackd/src/Tests/servers/stream_server.py /playbackd/fixtures > "$HOME/http.log" 2>&1 &
http_pid=$!
within 10 grep -q '^port ' "$HOME/http.log"
url="http://127.0.0.1:$(awk '/^port/ {print $2; exit}' "$HOME/http.log")/files/long.mp3"
if ! out=$(ctl enqueue "$url" --replace --play 2>&1); then
    fail http-stream "enqueue $url under the service: $out"
elif ! within 10 is_playing; then
    fail http-stream "not playing: $(ctl status 2>&1 | tr '\n' ' ')"
else
    ok http-stream
fi
ctl stop >/dev/null 2>&1
kill "$http_pid" 2>/dev/null

# 7d. The hardened service keeps the phrases it finds where the user's cache is
# (CacheDirectory=, writable despite ProtectHome=read-only).
phrases_complete() { ctl --json phrases 2>/dev/null | grep -q '"complete":true'; }
cache_kept() { ls "$HOME"/.cache/playbackd/phrases/*.json >/dev/null 2>&1; }
if ! out=$(ctl enqueue /playbackd/fixtures/speech-loud.flac --replace 2>&1); then
    fail phrase-cache "enqueue under the service: $out"
elif ! within 10 phrases_complete; then
    fail phrase-cache "the analysis did not finish: $(ctl --json phrases 2>&1)"
elif ! within 5 cache_kept; then
    fail phrase-cache "nothing under ~/.cache/playbackd/phrases: $(ls -la "$HOME/.cache" 2>&1 | tr '\n' ' ')"
else
    ok phrase-cache
fi

# 8. A broken configuration: exit 78, failed, and no restart loop.
echo 'devise = "x"' > "$config"
systemctl --user restart playbackd.service 2>/dev/null
restarts=$(show NRestarts)
sleep 6  # three RestartSec= periods: a restart loop would have shown by now
if [ "$(show ExecMainStatus)" != 78 ]; then
    fail config-error "ExecMainStatus=$(show ExecMainStatus)"
elif [ "$(show ActiveState)" != failed ] || [ "$(show NRestarts)" != "$restarts" ]; then
    fail config-error "$(show ActiveState), NRestarts $(show NRestarts) (was $restarts)"
else
    ok config-error
fi

rm -f "$config"
systemctl --user reset-failed playbackd.service
systemctl --user --no-pager status playbackd.service playbackd.socket
systemd-analyze --user security playbackd.service --no-pager > /playbackd/results/security.txt 2>&1
systemctl --user stop playbackd.socket playbackd.service
