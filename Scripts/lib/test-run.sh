# The test run's own directory, and what is checked when the run ends. Sourced by Scripts/test.
# begin_run makes PLAYBACKD_TEST_ROOT (every test's world lives under it; TMPDIR points into
# it) and notes what /tmp holds; end_run (the EXIT trap, so also after a failure or Ctrl-C)
# kills and names every program the tests started that is still running (each carries
# PLAYBACKD_TEST_RUN=ROOT in its environment, however it was started), removes the root, and
# names anything new in /tmp. A leftover of either kind fails the run.

begin_run() {
    PLAYBACKD_TEST_ROOT=$(mktemp -d /tmp/playbackd-tests.XXXXXX)
    # Searchable by the tests that run a program as another user (each world is 0700 itself).
    chmod 755 "$PLAYBACKD_TEST_ROOT"
    mkdir -p -m 1777 "$PLAYBACKD_TEST_ROOT/tmp"
    export PLAYBACKD_TEST_ROOT
    TMP_BEFORE=$(ls -A /tmp | sort)
}

# The processes whose environment carries this run's mark.
marked_processes() {
    grep -lzx "PLAYBACKD_TEST_RUN=$PLAYBACKD_TEST_ROOT" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
}

# Runs a command with the run's mark and TMPDIR (the shell itself carries neither, so that it
# is never counted as left behind).
marked() {
    PLAYBACKD_TEST_RUN=$PLAYBACKD_TEST_ROOT TMPDIR=$PLAYBACKD_TEST_ROOT/tmp "$@"
}

end_run() {
    local status=$? leftovers=() pid
    [ -n "${PLAYBACKD_TEST_ROOT:-}" ] || return "$status"
    for pid in $(marked_processes); do
        leftovers+=("$pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-160)")
        kill -KILL "$pid" 2>/dev/null || true
    done
    if [ ${#leftovers[@]} -gt 0 ]; then
        echo "left running by the tests (killed now):" >&2
        printf '  %s\n' "${leftovers[@]}" >&2
        status=1
    fi
    rm -rf "$PLAYBACKD_TEST_ROOT" || status=1
    # (Another run's root, from a second clone tested at the same time, is not this run's.)
    local added
    added=$(comm -13 <(echo "$TMP_BEFORE") <(ls -A /tmp | sort) | grep -v '^playbackd-tests\.' || true)
    if [ -n "$added" ]; then
        echo "left in /tmp by the tests:" >&2
        echo "$added" | sed 's/^/  /' >&2
        status=1
    fi
    return "$status"
}
