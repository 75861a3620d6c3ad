# Starts a private PulseAudio server with a null sink (real-time pacing without a sound card)
# in a fresh runtime directory. Sets PULSE_RUNTIME_DIR_FOR_TESTS and PULSE_PID; stop_pulse ends it.
start_pulse() {
    PULSE_RUNTIME_DIR_FOR_TESTS=$(mktemp -d /tmp/playbackd-pulse.XXXXXX)
    chmod 700 "$PULSE_RUNTIME_DIR_FOR_TESTS"
    printf '%s\n' \
        'load-module module-null-sink sink_name=nullsink rate=44100 channels=2' \
        'set-default-sink nullsink' \
        'load-module module-native-protocol-unix' > "$PULSE_RUNTIME_DIR_FOR_TESTS/default.pa"
    HOME=$PULSE_RUNTIME_DIR_FOR_TESTS XDG_RUNTIME_DIR=$PULSE_RUNTIME_DIR_FOR_TESTS \
        pulseaudio -n -F "$PULSE_RUNTIME_DIR_FOR_TESTS/default.pa" --exit-idle-time=-1 \
        --daemonize=no --log-target=stderr >"$PULSE_RUNTIME_DIR_FOR_TESTS/pulse.log" 2>&1 &
    PULSE_PID=$!
    for _ in $(seq 100); do
        XDG_RUNTIME_DIR=$PULSE_RUNTIME_DIR_FOR_TESTS pactl info >/dev/null 2>&1 && return 0
        kill -0 "$PULSE_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "PulseAudio did not start:" >&2
    cat "$PULSE_RUNTIME_DIR_FOR_TESTS/pulse.log" >&2
    return 1
}

stop_pulse() {
    [ -n "${PULSE_PID:-}" ] && kill "$PULSE_PID" 2>/dev/null && wait "$PULSE_PID" 2>/dev/null
    [ -n "${PULSE_RUNTIME_DIR_FOR_TESTS:-}" ] && rm -rf "$PULSE_RUNTIME_DIR_FOR_TESTS"
    return 0
}
