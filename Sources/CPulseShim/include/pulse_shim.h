#ifndef PLAYBACKD_PULSE_SHIM_H
#define PLAYBACKD_PULSE_SHIM_H

#include <pulse/mainloop-api.h>
#include <systemd/sd-event.h>

/// libpulse's main loop interface on an sd-event loop: libpulse's descriptors, timers and
/// deferred calls become sd-event sources, so a libpulse context runs on the daemon's control
/// thread and sleeps in the same epoll_wait (no thread, no wake-up of its own).
/// Free with playbackd_pulse_api_free after every context that used it is gone.
pa_mainloop_api *playbackd_pulse_api_new(sd_event *event);
void playbackd_pulse_api_free(pa_mainloop_api *api);

#endif
