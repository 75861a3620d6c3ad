#ifndef PLAYBACKD_ALSA_SHIM_H
#define PLAYBACKD_ALSA_SHIM_H

/// Silences libasound's "ALSA lib ..." messages on stderr. ALSA's error handler type is a
/// variadic function pointer, which Swift cannot provide; errors still reach the caller as
/// return codes, which the engine turns into typed errors.
void playbackd_alsa_silence_errors(void);

#endif
