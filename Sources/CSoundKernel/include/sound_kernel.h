#ifndef PLAYBACKD_SOUND_KERNEL_H
#define PLAYBACKD_SOUND_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/// The sound chain's inner loops, where the processor's vector width decides the cost: the
/// biquad cascade and the conversions to and from 16-bit samples. Written in C so that one
/// source is compiled twice, for any x86-64 (or the build's own architecture) and for x86-64
/// with AVX2 and FMA, and the faster one is chosen once at start-up (Swift can choose a target
/// processor only for a whole module). Signals are frames of two doubles (left, right; a mono
/// signal carries its one channel in both). Nothing here allocates, locks or blocks: the
/// output thread calls it.

/// A biquad's coefficients, normalized (a0 = 1).
typedef struct {
    double b0, b1, b2, a1, a2;
} playbackd_biquad;

/// One biquad's memory for both channels (transposed direct form II): z1 then z2, each
/// left and right. The layout of the engine's `StereoState`.
typedef struct {
    double z1[2];
    double z2[2];
} playbackd_biquad_state;

/// The most bands `playbackd_biquad_cascade` runs.
#define PLAYBACKD_MAXIMUM_BANDS 16

/// The implementations `playbackd_sound_kernel_select` can choose.
typedef enum {
    /// Any processor of the build's architecture (SSE2 on x86-64).
    PLAYBACKD_SOUND_KERNEL_PORTABLE = 0,
    /// x86-64 with AVX2 and FMA: four doubles an instruction, multiply-adds fused.
    PLAYBACKD_SOUND_KERNEL_AVX2 = 1,
} playbackd_sound_kernel;

/// The fastest implementation this processor runs (asks the processor: call it once).
playbackd_sound_kernel playbackd_sound_kernel_best(void);

/// Makes `kernel` the one used from now on; returns 0, or -1 (nothing changed) when this
/// processor cannot run it. Call it before any thread processes sound.
int playbackd_sound_kernel_select(playbackd_sound_kernel kernel);

/// The implementation in use (the portable one until one is selected).
playbackd_sound_kernel playbackd_sound_kernel_selected(void);

/// Runs `frames` frames of `signal` through `count` (at most 16) biquads in cascade, then
/// multiplies by `gain`; in place. `states` holds one entry per band and is carried on. On
/// x86-64, subnormal numbers are taken as zero while it runs (they are slow there).
void playbackd_biquad_cascade(
    double *signal, size_t frames, const playbackd_biquad *bands, playbackd_biquad_state *states, size_t count,
    double gain);

/// `playbackd_biquad_cascade` with `kernel`, whichever is selected (tests compare them).
/// `kernel` must be one this processor runs.
void playbackd_biquad_cascade_using(
    playbackd_sound_kernel kernel, double *signal, size_t frames, const playbackd_biquad *bands,
    playbackd_biquad_state *states, size_t count, double gain);

/// Widens `frames` frames of `channels` (1 or 2) interleaved 16-bit samples into `signal`
/// (full scale 1.0).
void playbackd_sound_widen(const int16_t *input, size_t frames, int channels, double *signal);

/// The state of the dither's noise: eight xorshift32 generators, one per vector lane (noise
/// for dither, not for statistics). A fixed seed makes a capture the same on every run.
typedef struct {
    uint32_t lanes[8];
} playbackd_dither;

/// Generators started from `seed`.
playbackd_dither playbackd_dither_seeded(uint64_t seed);

/// Narrows `frames` frames of `signal` to `channels` (1 or 2) interleaved 16-bit samples:
/// full scale 1.0 becomes 32768, plus triangular (TPDF) dither of ±1 LSB on each sample
/// (the difference of two uniform values; `*dither` advances once per four frames), rounded
/// to the nearest integer, ties to even, and clamped to 16 bits.
void playbackd_sound_narrow(
    const double *signal, size_t frames, int channels, playbackd_dither *dither, int16_t *output);

/// `playbackd_sound_narrow` with `kernel`, whichever is selected (tests compare them).
/// `kernel` must be one this processor runs.
void playbackd_sound_narrow_using(
    playbackd_sound_kernel kernel, const double *signal, size_t frames, int channels, playbackd_dither *dither,
    int16_t *output);

/// Widens `frames` frames of `channels` (1 or 2) interleaved 32-bit samples into `signal`
/// (full scale 1.0).
void playbackd_sound_widen32(const int32_t *input, size_t frames, int channels, double *signal);

/// Narrows `frames` frames of `signal` to 24-bit values at the top of `channels` (1 or 2)
/// interleaved 32-bit samples (the low 8 bits zero): full scale 1.0 becomes 2^23 before the
/// shift, with the TPDF dither of ±1 LSB of 24 bits, rounding and clamping of
/// `playbackd_sound_narrow`.
void playbackd_sound_narrow24(
    const double *signal, size_t frames, int channels, playbackd_dither *dither, int32_t *output);

#endif
