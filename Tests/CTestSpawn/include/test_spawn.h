#ifndef PLAYBACKD_TEST_SPAWN_H
#define PLAYBACKD_TEST_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and exactly `envp`, as the tests start long-lived helpers
/// (PulseAudio, dbus-daemon, snapserver): with no signal blocked, and with none of the test
/// runner's descriptors but 0, 1 and 2. The runner opens pipes and files for many tests at
/// once; a helper that inherited one would hold it open for its whole life (a pipe that never
/// ends, a copied program that cannot run: ETXTBSY). Returns 0 and sets `pid`, or an errno.
int playbackd_test_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[]);

#endif
