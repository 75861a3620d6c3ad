#define _GNU_SOURCE
#include "test_spawn.h"

#include <signal.h>
#include <spawn.h>

int playbackd_test_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[]) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    sigset_t none;
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_init(&actions);
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    int result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}
