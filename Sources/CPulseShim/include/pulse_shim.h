#ifndef PLAYBACKD_PULSE_SHIM_H
#define PLAYBACKD_PULSE_SHIM_H

#include <pulse/context.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop.h>
#include <pulse/mainloop-api.h>
#include <pulse/proplist.h>
#include <pulse/stream.h>
#include <pulse/subscribe.h>
#include <systemd/sd-event.h>

/// libpulse's main loop interface on an sd-event loop: libpulse's descriptors, timers and
/// deferred calls become sd-event sources, so a libpulse context runs on the daemon's event
/// loop and sleeps in the same epoll_wait (no thread, no wake-up of its own).
/// Free with playbackd_pulse_api_free after every context that used it is gone.
pa_mainloop_api *playbackd_pulse_api_new(sd_event *event);
void playbackd_pulse_api_free(pa_mainloop_api *api);

/// libpulse is loaded when a sound server's stream is first watched, not when the daemon
/// starts: linked at start, it and the twenty libraries it needs (libsndfile, libX11, codecs)
/// would be mapped into every daemon, also one that plays to a card or a file (2 MiB of RSS,
/// and their relocations at every start). ALSA's pulse plugin loads it the same way.
/// Returns 1 once libpulse and every function below are there, 0 when they cannot be.
int playbackd_pulse_load(void);

// The libpulse functions the route watch and the engine's PulseSink call, under a `playbackd_`
// prefix; call them only after playbackd_pulse_load() returned 1.
#define PLAYBACKD_PULSE_FUNCTIONS(RETURNING, VOID)                                                                   \
    RETURNING(pa_context *, pa_context_new, (pa_mainloop_api * api, const char *name), (api, name))                  \
    VOID(pa_context_set_state_callback, (pa_context * c, pa_context_notify_cb_t cb, void *userdata), (c, cb, userdata)) \
    VOID(pa_context_set_subscribe_callback, (pa_context * c, pa_context_subscribe_cb_t cb, void *userdata),            \
         (c, cb, userdata))                                                                                          \
    RETURNING(int, pa_context_connect,                                                                               \
              (pa_context * c, const char *server, pa_context_flags_t flags, const pa_spawn_api *spawn),             \
              (c, server, flags, spawn))                                                                             \
    RETURNING(int, pa_context_errno, (const pa_context *c), (c))                                                     \
    RETURNING(const char *, pa_strerror, (int error), (error))                                                       \
    VOID(pa_context_disconnect, (pa_context * c), (c))                                                               \
    VOID(pa_context_unref, (pa_context * c), (c))                                                                    \
    RETURNING(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c))                                  \
    RETURNING(pa_operation *, pa_context_subscribe,                                                                  \
              (pa_context * c, pa_subscription_mask_t mask, pa_context_success_cb_t cb, void *userdata),             \
              (c, mask, cb, userdata))                                                                               \
    RETURNING(pa_operation *, pa_context_get_sink_info_list, (pa_context * c, pa_sink_info_cb_t cb, void *userdata), \
              (c, cb, userdata))                                                                                     \
    RETURNING(pa_operation *, pa_context_get_sink_input_info_list,                                                   \
              (pa_context * c, pa_sink_input_info_cb_t cb, void *userdata), (c, cb, userdata))                       \
    RETURNING(pa_operation *, pa_context_get_sink_info_by_index,                                                     \
              (pa_context * c, uint32_t index, pa_sink_info_cb_t cb, void *userdata), (c, index, cb, userdata))      \
    RETURNING(pa_operation *, pa_context_get_sink_input_info,                                                        \
              (pa_context * c, uint32_t index, pa_sink_input_info_cb_t cb, void *userdata), (c, index, cb, userdata)) \
    RETURNING(const char *, pa_proplist_gets, (const pa_proplist *p, const char *key), (p, key))                     \
    VOID(pa_operation_unref, (pa_operation * o), (o))                                                               \
    RETURNING(pa_operation_state_t, pa_operation_get_state, (const pa_operation *o), (o))                            \
    RETURNING(pa_mainloop *, pa_mainloop_new, (void), ())                                                            \
    VOID(pa_mainloop_free, (pa_mainloop * m), (m))                                                                   \
    RETURNING(pa_mainloop_api *, pa_mainloop_get_api, (pa_mainloop * m), (m))                                        \
    RETURNING(int, pa_mainloop_iterate, (pa_mainloop * m, int block, int *retval), (m, block, retval))               \
    VOID(pa_mainloop_set_poll_func, (pa_mainloop * m, pa_poll_func poll_func, void *userdata), (m, poll_func, userdata)) \
    RETURNING(pa_channel_map *, pa_channel_map_init_extend,                                                          \
              (pa_channel_map * m, unsigned channels, pa_channel_map_def_t def), (m, channels, def))                 \
    RETURNING(pa_stream *, pa_stream_new,                                                                            \
              (pa_context * c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map),               \
              (c, name, ss, map))                                                                                    \
    RETURNING(int, pa_stream_connect_playback,                                                                       \
              (pa_stream * s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags,                  \
               const pa_cvolume *volume, pa_stream *sync_stream),                                                    \
              (s, dev, attr, flags, volume, sync_stream))                                                            \
    RETURNING(pa_stream_state_t, pa_stream_get_state, (const pa_stream *s), (s))                                     \
    RETURNING(size_t, pa_stream_writable_size, (const pa_stream *s), (s))                                            \
    RETURNING(int, pa_stream_write,                                                                                  \
              (pa_stream * s, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset,                 \
               pa_seek_mode_t seek),                                                                                 \
              (s, data, nbytes, free_cb, offset, seek))                                                              \
    RETURNING(pa_operation *, pa_stream_drain, (pa_stream * s, pa_stream_success_cb_t cb, void *userdata),           \
              (s, cb, userdata))                                                                                     \
    RETURNING(pa_operation *, pa_stream_flush, (pa_stream * s, pa_stream_success_cb_t cb, void *userdata),           \
              (s, cb, userdata))                                                                                     \
    RETURNING(pa_operation *, pa_stream_cork, (pa_stream * s, int b, pa_stream_success_cb_t cb, void *userdata),     \
              (s, b, cb, userdata))                                                                                  \
    VOID(pa_stream_set_underflow_callback, (pa_stream * s, pa_stream_notify_cb_t cb, void *userdata),               \
         (s, cb, userdata))                                                                                          \
    RETURNING(pa_operation *, pa_stream_update_timing_info, (pa_stream * s, pa_stream_success_cb_t cb, void *userdata), \
              (s, cb, userdata))                                                                                     \
    RETURNING(const pa_timing_info *, pa_stream_get_timing_info, (pa_stream * s), (s))                              \
    RETURNING(int, pa_stream_disconnect, (pa_stream * s), (s))                                                       \
    VOID(pa_stream_unref, (pa_stream * s), (s))

#define PLAYBACKD_PULSE_DECLARE_RETURNING(type, name, parameters, arguments) type playbackd_##name parameters;
#define PLAYBACKD_PULSE_DECLARE_VOID(name, parameters, arguments) void playbackd_##name parameters;
PLAYBACKD_PULSE_FUNCTIONS(PLAYBACKD_PULSE_DECLARE_RETURNING, PLAYBACKD_PULSE_DECLARE_VOID)

#endif
