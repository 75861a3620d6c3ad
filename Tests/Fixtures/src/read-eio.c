/* Makes reads of one file fail with EIO, as a failing disk or a dropped network filesystem
 * does, without FUSE: preloaded into the daemon (LD_PRELOAD), every read, pread and readv of
 * the file $READ_EIO_FILE (matched by device and inode) fails with EIO while the file
 * $READ_EIO_TRIGGER exists; until then, and for every other file, reads are untouched.
 * Built by the fault test with the toolchain's C compiler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_readv)(int, const struct iovec *, int);

/* Whether a read of `fd` must fail now. */
static int failing(int fd) {
    const char *path = getenv("READ_EIO_FILE");
    const char *trigger = getenv("READ_EIO_TRIGGER");
    struct stat target, opened, triggered;
    if (!path || !trigger || stat(trigger, &triggered) != 0) return 0;
    if (stat(path, &target) != 0 || fstat(fd, &opened) != 0) return 0;
    return target.st_dev == opened.st_dev && target.st_ino == opened.st_ino;
}

ssize_t read(int fd, void *buffer, size_t count) {
    if (!real_read) real_read = dlsym(RTLD_NEXT, "read");
    if (failing(fd)) {
        errno = EIO;
        return -1;
    }
    return real_read(fd, buffer, count);
}

ssize_t __read_chk(int fd, void *buffer, size_t count, size_t size) {
    (void)size;
    return read(fd, buffer, count);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset) {
    if (!real_pread) real_pread = dlsym(RTLD_NEXT, "pread");
    if (failing(fd)) {
        errno = EIO;
        return -1;
    }
    return real_pread(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) { return pread(fd, buffer, count, offset); }

ssize_t readv(int fd, const struct iovec *vectors, int count) {
    if (!real_readv) real_readv = dlsym(RTLD_NEXT, "readv");
    if (failing(fd)) {
        errno = EIO;
        return -1;
    }
    return real_readv(fd, vectors, count);
}
