#!/usr/bin/env bash
# Inside the container (as root, from playbackd-checks.service): starts the test user's real
# user manager (lingering, as on a headless machine), runs user-checks.sh as that user, and
# adds the checks only root can make (the journal). The unit powers the container off after.
set -uo pipefail
user=${PLAYBACKD_CHECK_USER:-pbtest}
uid=${PLAYBACKD_CHECK_UID:-4242}
results=/playbackd/results/results
echo "playbackd checks: started"

loginctl enable-linger "$user"
systemctl start "user@$uid.service"
for _ in $(seq 100); do
    [ -S "/run/user/$uid/systemd/private" ] && break
    sleep 0.1
done
if ! systemctl is-active --quiet "user@$uid.service"; then
    echo "not ok user-manager: user@$uid.service did not start" >> "$results"
    systemctl status "user@$uid.service" --no-pager
    exit 0
fi
echo "ok user-manager" >> "$results"

setpriv --reuid="$uid" --regid="$uid" --init-groups --reset-env \
    env XDG_RUNTIME_DIR="/run/user/$uid" PATH="/home/$user/.local/bin:/usr/bin:/bin" \
    bash /playbackd/src/Tests/systemd/user-checks.sh > /playbackd/results/user.log 2>&1

# The daemon's own journal entries, through the real journald.
journalctl --no-pager -o cat _UID="$uid" SYSLOG_IDENTIFIER=playbackd > /playbackd/results/journal.log 2>&1
journalctl --no-pager _UID="$uid" > /playbackd/results/journal-user.log 2>&1
if grep -q "reloaded the configuration" /playbackd/results/journal.log \
    && grep -q "received SIGTERM, shutting down" /playbackd/results/journal.log; then
    echo "ok journal" >> "$results"
else
    echo "not ok journal: the daemon's reload and SIGTERM lines are not in the journal" >> "$results"
fi
echo "playbackd checks: finished"
