#include "pulse_shim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>

// libpulse marks a struct timeval that holds CLOCK_MONOTONIC time (pa_rtclock) rather than
// wall-clock time by setting this bit in tv_usec (pulsecore/core-rtclock.h, not installed).
#define PLAYBACKD_PA_TIMEVAL_RTCLOCK ((suseconds_t)(1LU << 30))

struct pa_io_event {
    pa_mainloop_api *api;
    sd_event_source *source;
    pa_io_event_cb_t callback;
    pa_io_event_destroy_cb_t destroy;
    void *userdata;
};

struct pa_time_event {
    pa_mainloop_api *api;
    sd_event_source *source;
    pa_time_event_cb_t callback;
    pa_time_event_destroy_cb_t destroy;
    void *userdata;
    struct timeval when;
};

struct pa_defer_event {
    pa_mainloop_api *api;
    sd_event_source *source;
    pa_defer_event_cb_t callback;
    pa_defer_event_destroy_cb_t destroy;
    void *userdata;
};

static sd_event *loop_of(pa_mainloop_api *api) { return api->userdata; }

// epoll reports hang-up and error whether asked or not, as poll does for libpulse's own loop.
static uint32_t epoll_events(pa_io_event_flags_t flags) {
    return (flags & PA_IO_EVENT_INPUT ? EPOLLIN : 0) | (flags & PA_IO_EVENT_OUTPUT ? EPOLLOUT : 0);
}

static pa_io_event_flags_t pulse_flags(uint32_t events) {
    return (events & EPOLLIN ? PA_IO_EVENT_INPUT : 0) | (events & EPOLLOUT ? PA_IO_EVENT_OUTPUT : 0)
        | (events & EPOLLHUP ? PA_IO_EVENT_HANGUP : 0) | (events & EPOLLERR ? PA_IO_EVENT_ERROR : 0);
}

static int io_dispatch(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
    (void)source;
    pa_io_event *e = userdata;
    e->callback(e->api, e, fd, pulse_flags(revents), e->userdata);
    return 0;
}

static pa_io_event *io_new(
    pa_mainloop_api *api, int fd, pa_io_event_flags_t flags, pa_io_event_cb_t callback, void *userdata) {
    pa_io_event *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    *e = (pa_io_event){.api = api, .callback = callback, .userdata = userdata};
    if (sd_event_add_io(loop_of(api), &e->source, fd, epoll_events(flags), io_dispatch, e) < 0) {
        free(e);
        return NULL;
    }
    return e;
}

static void io_enable(pa_io_event *e, pa_io_event_flags_t flags) {
    sd_event_source_set_io_events(e->source, epoll_events(flags));
}

static void io_free(pa_io_event *e) {
    if (e->destroy) e->destroy(e->api, e, e->userdata);
    sd_event_source_disable_unref(e->source);
    free(e);
}

static void io_set_destroy(pa_io_event *e, pa_io_event_destroy_cb_t destroy) { e->destroy = destroy; }

static int time_dispatch(sd_event_source *source, uint64_t usec, void *userdata) {
    (void)source;
    (void)usec;
    pa_time_event *e = userdata;
    e->callback(e->api, e, &e->when, e->userdata);
    return 0;
}

/// Arms `e` for `when` (NULL: disarms it). A time event fires once until restarted.
static void time_arm(pa_time_event *e, const struct timeval *when) {
    if (!when) {
        sd_event_source_set_enabled(e->source, SD_EVENT_OFF);
        return;
    }
    e->when = *when;
    int monotonic = (when->tv_usec & PLAYBACKD_PA_TIMEVAL_RTCLOCK) != 0;
    uint64_t usec = (uint64_t)when->tv_sec * 1000000u + (uint64_t)(when->tv_usec & ~PLAYBACKD_PA_TIMEVAL_RTCLOCK);
    clockid_t clock = monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME;
    if (!e->source) {
        if (sd_event_add_time(loop_of(e->api), &e->source, clock, usec, 1000, time_dispatch, e) < 0) e->source = NULL;
        return;
    }
    clockid_t current;
    if (sd_event_source_get_time_clock(e->source, &current) >= 0 && current != clock) {
        sd_event_source_disable_unref(e->source);
        e->source = NULL;
        time_arm(e, when);
        return;
    }
    sd_event_source_set_time(e->source, usec);
    sd_event_source_set_enabled(e->source, SD_EVENT_ONESHOT);
}

static pa_time_event *time_new(
    pa_mainloop_api *api, const struct timeval *when, pa_time_event_cb_t callback, void *userdata) {
    pa_time_event *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    *e = (pa_time_event){.api = api, .callback = callback, .userdata = userdata};
    if (when) {
        time_arm(e, when);
        if (!e->source) {
            free(e);
            return NULL;
        }
    }
    return e;
}

static void time_restart(pa_time_event *e, const struct timeval *when) {
    if (e->source || when) time_arm(e, when);
}

static void time_free(pa_time_event *e) {
    if (e->destroy) e->destroy(e->api, e, e->userdata);
    sd_event_source_disable_unref(e->source);
    free(e);
}

static void time_set_destroy(pa_time_event *e, pa_time_event_destroy_cb_t destroy) { e->destroy = destroy; }

static int defer_dispatch(sd_event_source *source, void *userdata) {
    (void)source;
    pa_defer_event *e = userdata;
    e->callback(e->api, e, e->userdata);
    return 0;
}

static pa_defer_event *defer_new(pa_mainloop_api *api, pa_defer_event_cb_t callback, void *userdata) {
    pa_defer_event *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    *e = (pa_defer_event){.api = api, .callback = callback, .userdata = userdata};
    if (sd_event_add_defer(loop_of(api), &e->source, defer_dispatch, e) < 0) {
        free(e);
        return NULL;
    }
    // A deferred call runs at every iteration until disabled (sd-event's default is once).
    sd_event_source_set_enabled(e->source, SD_EVENT_ON);
    return e;
}

static void defer_enable(pa_defer_event *e, int enabled) {
    sd_event_source_set_enabled(e->source, enabled ? SD_EVENT_ON : SD_EVENT_OFF);
}

static void defer_free(pa_defer_event *e) {
    if (e->destroy) e->destroy(e->api, e, e->userdata);
    sd_event_source_disable_unref(e->source);
    free(e);
}

static void defer_set_destroy(pa_defer_event *e, pa_defer_event_destroy_cb_t destroy) { e->destroy = destroy; }

// The loop belongs to the daemon: libpulse does not end it.
static void quit(pa_mainloop_api *api, int retval) {
    (void)api;
    (void)retval;
}

pa_mainloop_api *playbackd_pulse_api_new(sd_event *event) {
    pa_mainloop_api *api = calloc(1, sizeof *api);
    if (!api) return NULL;
    *api = (pa_mainloop_api){
        .userdata = sd_event_ref(event),
        // The three kinds of event, each created, enabled, freed and given a destroy callback.
        .io_new = io_new, .io_enable = io_enable, .io_free = io_free, .io_set_destroy = io_set_destroy,
        .time_new = time_new, .time_restart = time_restart, .time_free = time_free,
        .time_set_destroy = time_set_destroy,
        .defer_new = defer_new, .defer_enable = defer_enable, .defer_free = defer_free,
        .defer_set_destroy = defer_set_destroy,
        .quit = quit,
    };
    return api;
}

void playbackd_pulse_api_free(pa_mainloop_api *api) {
    if (!api) return;
    sd_event_unref(api->userdata);
    free(api);
}

// The functions, resolved by playbackd_pulse_load.
#define PLAYBACKD_PULSE_POINTER_RETURNING(type, name, parameters, arguments) static type(*name##_function) parameters;
#define PLAYBACKD_PULSE_POINTER_VOID(name, parameters, arguments) static void(*name##_function) parameters;
PLAYBACKD_PULSE_FUNCTIONS(PLAYBACKD_PULSE_POINTER_RETURNING, PLAYBACKD_PULSE_POINTER_VOID)

#define PLAYBACKD_PULSE_WRAP_RETURNING(type, name, parameters, arguments) \
    type playbackd_##name parameters { return name##_function arguments; }
#define PLAYBACKD_PULSE_WRAP_VOID(name, parameters, arguments) \
    void playbackd_##name parameters { name##_function arguments; }
PLAYBACKD_PULSE_FUNCTIONS(PLAYBACKD_PULSE_WRAP_RETURNING, PLAYBACKD_PULSE_WRAP_VOID)

int playbackd_pulse_load(void) {
    static int loaded = 0;
    if (loaded) return 1;
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    int complete = 1;
#define PLAYBACKD_PULSE_RESOLVE(name) complete &= (*(void **)&name##_function = dlsym(library, #name)) != NULL;
#define PLAYBACKD_PULSE_RESOLVE_RETURNING(type, name, parameters, arguments) PLAYBACKD_PULSE_RESOLVE(name)
#define PLAYBACKD_PULSE_RESOLVE_VOID(name, parameters, arguments) PLAYBACKD_PULSE_RESOLVE(name)
    PLAYBACKD_PULSE_FUNCTIONS(PLAYBACKD_PULSE_RESOLVE_RETURNING, PLAYBACKD_PULSE_RESOLVE_VOID)
    if (!complete) {
        dlclose(library);
        return 0;
    }
    loaded = 1;
    return 1;
}
