#ifndef PLAYBACKD_SYSTEM_SHIM_H
#define PLAYBACKD_SYSTEM_SHIM_H

/// What Swift's Glibc module cannot call directly: GNU-only calls and flags (eventfd,
/// signalfd, accept4, SO_PEERCRED, per-thread names and scheduling, malloc_trim). No audio
/// library here.

/// A non-blocking, close-on-exec eventfd with a zero count (eventfd.h is not in Swift's Glibc).
int playbackd_eventfd(void);

/// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread; threads started afterwards inherit
/// the mask. The daemon calls it first thing in `main`, before any thread (its own or a
/// library's) exists, so the kernel can deliver these signals to no thread but through the
/// signalfd. Returns 0, or -1 on failure.
int playbackd_block_daemon_signals(void);

/// Blocks the daemon's signals in the calling thread (see `playbackd_block_daemon_signals`)
/// and returns a non-blocking signalfd that reports them.
int playbackd_signalfd(void);

/// Reads one pending signal number from a signalfd, or -1.
int playbackd_signalfd_read(int fd);

/// Names the calling thread (visible in top -H and /proc); at most 15 bytes are kept.
void playbackd_name_this_thread(const char *name);

/// Makes the calling thread background work: SCHED_BATCH at nice `nice_value` (Linux sets
/// the nice value per thread), so it yields to the event loop and to the rest of the system.
/// Returns 0 on success, -1 when either part was refused.
int playbackd_make_this_thread_background(int nice_value);

/// Makes the calling thread idle work: SCHED_IDLE (it runs only when nothing else would) and
/// the idle I/O class (its reads wait for every other disk access). Returns 0 on success, -1
/// when either part was refused.
int playbackd_make_this_thread_idle(void);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC (a GNU extension Swift's Glibc hides).
int playbackd_accept(int listen_fd);

/// A Unix datagram socket, close-on-exec, for sd_notify (Swift's compiler now and then did not
/// find SOCK_DGRAM in the file that made it).
int playbackd_unix_datagram_socket(void);

/// The peer's uid from SO_PEERCRED; returns 0 on success, -1 on failure.
int playbackd_peer_uid(int fd, unsigned int *uid);

/// Fixes malloc's thresholds (M_MMAP_THRESHOLD and M_TRIM_THRESHOLD at 256 KiB) instead of
/// glibc's sliding ones: once a large block had been freed (a 36 MB table in a library scan),
/// glibc raised both to twice its size and a thread's arena kept tens of MiB free for good.
/// Two arenas at most: with one, the two threads that read a long resume state wait on each
/// other's malloc; more cost memory and gain nothing (docs/performance.md).
void playbackd_fix_heap_thresholds(void);

/// Gives the heap's free memory back to the system (glibc's malloc_trim, in malloc.h, which
/// Swift's Glibc module does not include): after a library scan that read 100,000 files on
/// several threads, the arenas hold tens of MiB that nothing will use again.
void playbackd_release_free_heap(void);

/// Copies up to `count` bytes of `source` from `*offset` to the current position of `target`
/// inside the kernel (`copy_file_range`, which Swift's Glibc module does not declare without
/// _GNU_SOURCE). Returns the bytes copied, or -1 with errno set.
long playbackd_copy_file_range(int source, long long *offset, int target, unsigned long count);

/// Unmaps, in this process only, the pages of every loaded object's read-only segments (its
/// code, constants and symbol tables), which are the file's pages unchanged: the kernel maps
/// each again from the page cache when it is next touched, so what stays resident is what is
/// used from now on, not what starting touched (the dynamic linker's symbol lookups, the
/// constructors of libraries never called again, and the pages around each page touched
/// that the kernel maps with it). Writable segments, RELRO, the vDSO and objects with text
/// relocations are left alone. Returns the bytes of the ranges unmapped (whether resident
/// or not).
unsigned long playbackd_release_clean_file_pages(void);

#endif
