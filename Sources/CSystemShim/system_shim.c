#define _GNU_SOURCE
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/resource.h>
#include <sched.h>
#include <unistd.h>
#include <pthread.h>
#include <malloc.h>
#include <sys/syscall.h>
#include "system_shim.h"

int playbackd_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

static void playbackd_daemon_signal_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGHUP);
}

int playbackd_block_daemon_signals(void) {
    sigset_t set;
    playbackd_daemon_signal_set(&set);
    return pthread_sigmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -1;
}

int playbackd_signalfd(void) {
    if (playbackd_block_daemon_signals() != 0) return -1;
    sigset_t set;
    playbackd_daemon_signal_set(&set);
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int playbackd_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    if (read(fd, &info, sizeof info) != (ssize_t)sizeof info) return -1;
    return (int)info.ssi_signo;
}

void playbackd_name_this_thread(const char *name) {
    pthread_setname_np(pthread_self(), name);
}

int playbackd_make_this_thread_background(int nice_value) {
    struct sched_param param = {0};
    int scheduling = pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
    int niceness = setpriority(PRIO_PROCESS, (id_t)gettid(), nice_value);
    return scheduling == 0 && niceness == 0 ? 0 : -1;
}

int playbackd_make_this_thread_idle(void) {
    struct sched_param param = {0};
    int scheduling = pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
    // ioprio_set(IOPRIO_WHO_PROCESS, this thread, IOPRIO_CLASS_IDLE): glibc has no wrapper.
    int io = (int)syscall(SYS_ioprio_set, 1, (int)gettid(), 3 << 13);
    return scheduling == 0 && io == 0 ? 0 : -1;
}

int playbackd_accept(int listen_fd) {
    return accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int playbackd_unix_datagram_socket(void) {
    return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

int playbackd_peer_uid(int fd, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

void playbackd_release_free_heap(void) { malloc_trim(0); }

long playbackd_copy_file_range(int source, long long *offset, int target, unsigned long count) {
    loff_t position = *offset;
    ssize_t copied = copy_file_range(source, &position, target, NULL, count, 0);
    *offset = position;
    return copied;
}

void playbackd_fix_heap_thresholds(void) {
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024);
}
