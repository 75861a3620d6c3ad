/* Counts heap allocations per thread kind, for the real-time test: preloaded into the daemon
 * (LD_PRELOAD), it counts every malloc, calloc, realloc and aligned allocation, and those made
 * on the thread named "pbd-output" apart: "device" when ALSA or its sound-server plugin
 * (libasound, libpulse, libpipewire) is on the stack, "output" otherwise (playbackd's own).
 * At exit it writes "output=N device=M all=K" to $MALLOC_COUNT_FILE. Built by the test with
 * the toolchain's C compiler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static atomic_long output_count, device_count, all_count;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void (*real_free)(void *);
/* dlsym may allocate before real_calloc is known: that comes from here. */
static char bootstrap[4096];
static size_t bootstrap_used;
static __thread int resolving;

static void resolve(void) {
    if (real_malloc) return;
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_free = dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

static __thread int tracing;
static __thread int classifying;

/* Whether the allocation comes from inside the audio device's libraries. */
static int from_device(void) {
    void *frames[48];
    int depth = backtrace(frames, 48);
    for (int i = 2; i < depth; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname
            && (strstr(info.dli_fname, "libasound") || strstr(info.dli_fname, "libpulse")
                || strstr(info.dli_fname, "libpipewire")))
            return 1;
    }
    return 0;
}

/* With $MALLOC_COUNT_TRACE set, the stack of each of the first output-thread allocations is
 * appended there (backtrace_symbols_fd does not allocate). */
static void trace(void) {
    const char *path = getenv("MALLOC_COUNT_TRACE");
    if (!path || tracing || atomic_load(&output_count) > 20) return;
    tracing = 1;
    void *frames[24];
    int depth = backtrace(frames, 24);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
        write(fd, "--\n", 3);
        backtrace_symbols_fd(frames, depth, fd);
        close(fd);
    }
    tracing = 0;
}

static void count(void) {
    char name[17] = {0};
    if (classifying) return;
    atomic_fetch_add(&all_count, 1);
    if (prctl(PR_GET_NAME, name) == 0 && strcmp(name, "pbd-output") == 0) {
        classifying = 1;
        if (from_device()) {
            atomic_fetch_add(&device_count, 1);
        } else {
            atomic_fetch_add(&output_count, 1);
            trace();
        }
        classifying = 0;
    }
}

/* backtrace() loads libgcc_s on first use (which allocates): do it now, on the main thread. */
__attribute__((constructor)) static void prepare(void) {
    void *frames[2];
    backtrace(frames, 2);
}

void *malloc(size_t size) {
    resolve();
    count();
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (resolving && !real_calloc) {
        void *p = bootstrap + bootstrap_used;
        bootstrap_used += (n * size + 15) & ~(size_t)15;
        return p;
    }
    resolve();
    count();
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    resolve();
    count();
    return real_realloc(p, size);
}

void free(void *p) {
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
    resolve();
    real_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    resolve();
    count();
    return real_posix_memalign(out, alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    resolve();
    count();
    return real_aligned_alloc(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    resolve();
    count();
    return real_memalign(alignment, size);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    char line[96];
    int length = snprintf(line, sizeof line, "output=%ld device=%ld all=%ld\n", atomic_load(&output_count),
                          atomic_load(&device_count), atomic_load(&all_count));
    write(fd, line, length);
    close(fd);
}
