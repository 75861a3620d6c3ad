#!/usr/bin/env bash
# Enables the installed user units on the running user manager: the socket listens at once,
# and the first playbackctl command starts the service (socket activation). A service that is
# already running is restarted, so a re-install runs the new binary. Scripts/install runs it;
# the real-systemd test (Tests/systemd) runs it inside its container.
set -euo pipefail
systemctl --user daemon-reload
systemctl --user enable --now playbackd.socket
systemctl --user enable playbackd.service
systemctl --user try-restart playbackd.service
