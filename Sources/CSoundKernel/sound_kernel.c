#include "sound_kernel.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <xmmintrin.h>
#endif

#define ALWAYS_INLINE static inline __attribute__((always_inline))

// Vectors are passed by value only between functions that are always inlined: no call with
// the AVX calling convention is ever made, whatever the target.
#pragma clang diagnostic ignored "-Wpsabi"

/// Four doubles: two bands' left and right (the cascade), or two frames (the conversions).
/// Eight 32-bit lanes: the dither's generators.
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));
typedef int32_t v4i __attribute__((vector_size(16)));
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef int16_t v8s __attribute__((vector_size(16)));

/// The most registers of two bands a wavefront holds.
#define MAXIMUM_GROUPS (PLAYBACKD_MAXIMUM_BANDS / 2)

// MARK: - The cascade as a wavefront

/// Lane by lane, `chosen` where `mask` is set, else `other`.
ALWAYS_INLINE v4d blend(v4l mask, v4d chosen, v4d other)
{
    return (v4d)(((v4l)chosen & mask) | ((v4l)other & ~mask));
}

/// a·b + c, rounded once where `fused` (the target has FMA), else as written.
ALWAYS_INLINE v4d multiply_add(const int fused, v4d a, v4d b, v4d c)
{
    return fused ? __builtin_elementwise_fma(a, b, c) : a * b + c;
}

/// A biquad's recursion is a chain of dependent multiply-adds from one frame to the next: a
/// band run alone over a block goes at that chain's latency, and the processor's other units
/// wait. The cascade therefore runs as a wavefront: at step `s`, band `j` takes frame `s - j`,
/// its input being band `j - 1`'s output of the step before. Every band's work in a step is
/// independent of the others', so the step fills the vector units; the result is the cascade's,
/// frame for frame (with or without fused multiply-adds, as the target computes). Register `g`
/// holds bands `2g` and `2g + 1`, left and right; bands past `count` are identities (y = x)
/// that only carry the last real band's output to the end of the wavefront.
///
/// `masked` steps are the wavefront's filling and draining, where some bands have no frame:
/// their memory is left as it was.
ALWAYS_INLINE void wavefront_step(
    const int fused, const int groups, const int masked, size_t step, size_t frames, double *signal, const v4d *b0,
    const v4d *b1, const v4d *b2, const v4d *na1, const v4d *na2, v4d *z1, v4d *z2, v4d *y, double gain)
{
    const size_t width = (size_t)groups * 2;
    v4d in = {0, 0, 0, 0};
    if (!masked || step < frames) {
        in[2] = signal[2 * step];
        in[3] = signal[2 * step + 1];
    }
    v4d x[MAXIMUM_GROUPS];
    x[0] = __builtin_shufflevector(in, y[0], 2, 3, 4, 5);
#pragma clang loop unroll(full)
    for (int g = 1; g < groups; g++) x[g] = __builtin_shufflevector(y[g - 1], y[g], 2, 3, 4, 5);
#pragma clang loop unroll(full)
    for (int g = 0; g < groups; g++) {
        // What depends on this step's output comes last, so that the recursion's chain from
        // one step to the next is two operations: two fused multiply-adds where the target
        // has them (`na1`, `na2` are -a1, -a2).
        v4d out = multiply_add(fused, b0[g], x[g], z1[g]);
        v4d next1 = multiply_add(fused, na1[g], out, multiply_add(fused, b1[g], x[g], z2[g]));
        v4d next2 = multiply_add(fused, na2[g], out, b2[g] * x[g]);
        if (masked) {
            // Band j has a frame at this step when j <= step < frames + j.
            size_t first = (size_t)g * 2;
            int64_t low = (step >= first && step < frames + first) ? -1 : 0;
            int64_t high = (step >= first + 1 && step < frames + first + 1) ? -1 : 0;
            v4l keep = {low, low, high, high};
            next1 = blend(keep, next1, z1[g]);
            next2 = blend(keep, next2, z2[g]);
        }
        y[g] = out;
        z1[g] = next1;
        z2[g] = next2;
    }
    if (step + 1 >= width) {
        size_t frame = step + 1 - width;
        signal[2 * frame] = y[groups - 1][2] * gain;
        signal[2 * frame + 1] = y[groups - 1][3] * gain;
    }
}

ALWAYS_INLINE void wavefront(
    const int fused, const int groups, double *signal, size_t frames, const playbackd_biquad *bands,
    playbackd_biquad_state *states, size_t count, double gain)
{
    v4d b0[MAXIMUM_GROUPS], b1[MAXIMUM_GROUPS], b2[MAXIMUM_GROUPS], na1[MAXIMUM_GROUPS], na2[MAXIMUM_GROUPS];
    v4d z1[MAXIMUM_GROUPS], z2[MAXIMUM_GROUPS], y[MAXIMUM_GROUPS];
    for (int g = 0; g < groups; g++) {
        for (int half = 0; half < 2; half++) {
            size_t band = (size_t)g * 2 + (size_t)half;
            playbackd_biquad c = {1, 0, 0, 0, 0};
            playbackd_biquad_state s = {{0, 0}, {0, 0}};
            if (band < count) {
                c = bands[band];
                s = states[band];
            }
            for (int lane = half * 2; lane < half * 2 + 2; lane++) {
                b0[g][lane] = c.b0;
                b1[g][lane] = c.b1;
                b2[g][lane] = c.b2;
                na1[g][lane] = -c.a1;
                na2[g][lane] = -c.a2;
                z1[g][lane] = s.z1[lane - half * 2];
                z2[g][lane] = s.z2[lane - half * 2];
            }
        }
        y[g] = (v4d){0, 0, 0, 0};
    }
    const size_t width = (size_t)groups * 2;
    const size_t steps = frames + width - 1;
    // Every band has a frame in steps width - 1 ..< frames.
    const size_t full_start = width - 1;
    const size_t full_end = frames > full_start ? frames : full_start;
    size_t step = 0;
    for (; step < full_start && step < steps; step++)
        wavefront_step(fused, groups, 1, step, frames, signal, b0, b1, b2, na1, na2, z1, z2, y, gain);
    for (; step < full_end; step++)
        wavefront_step(fused, groups, 0, step, frames, signal, b0, b1, b2, na1, na2, z1, z2, y, gain);
    for (; step < steps; step++)
        wavefront_step(fused, groups, 1, step, frames, signal, b0, b1, b2, na1, na2, z1, z2, y, gain);
    for (size_t band = 0; band < count; band++) {
        size_t g = band / 2, lane = (band % 2) * 2;
        states[band] = (playbackd_biquad_state){{z1[g][lane], z1[g][lane + 1]}, {z2[g][lane], z2[g][lane + 1]}};
    }
}

ALWAYS_INLINE void cascade(
    const int fused, double *signal, size_t frames, const playbackd_biquad *bands, playbackd_biquad_state *states,
    size_t count, double gain)
{
    if (frames == 0) return;
    if (count == 0) {
        for (size_t i = 0; i < frames * 2; i++) signal[i] *= gain;
        return;
    }
    // A constant number of registers for each case, so that each loop is unrolled.
    switch ((count + 1) / 2) {
    case 1: wavefront(fused, 1, signal, frames, bands, states, count, gain); break;
    case 2: wavefront(fused, 2, signal, frames, bands, states, count, gain); break;
    case 3: wavefront(fused, 3, signal, frames, bands, states, count, gain); break;
    case 4: wavefront(fused, 4, signal, frames, bands, states, count, gain); break;
    case 5: wavefront(fused, 5, signal, frames, bands, states, count, gain); break;
    case 6: wavefront(fused, 6, signal, frames, bands, states, count, gain); break;
    case 7: wavefront(fused, 7, signal, frames, bands, states, count, gain); break;
    default: wavefront(fused, 8, signal, frames, bands, states, count, gain); break;
    }
}

// MARK: - Conversions

ALWAYS_INLINE void widen(const int16_t *input, size_t frames, int channels, double *signal)
{
    const double unit = 1.0 / 32768;
    if (channels == 2) {
        for (size_t i = 0; i < frames * 2; i++) signal[i] = input[i] * unit;
    } else {
        for (size_t f = 0; f < frames; f++) signal[2 * f] = signal[2 * f + 1] = input[f] * unit;
    }
}

ALWAYS_INLINE void widen32(const int32_t *input, size_t frames, int channels, double *signal)
{
    const double unit = 1.0 / 2147483648.0;
    if (channels == 2) {
        for (size_t i = 0; i < frames * 2; i++) signal[i] = input[i] * unit;
    } else {
        for (size_t f = 0; f < frames; f++) signal[2 * f] = signal[2 * f + 1] = input[f] * unit;
    }
}

ALWAYS_INLINE v4d clamp(v4d value, v4d low, v4d high)
{
    value = blend(value < low, low, value);
    return blend(value > high, high, value);
}

/// Four frames (eight samples) to integers of `bits` bits (16 or 24), TPDF-dithered by one
/// LSB of that resolution; `dither` advances once.
ALWAYS_INLINE v8i quantize_four(const double *signal, v8u *dither, const int bits)
{
    // xorshift32 in each of eight lanes (Marsaglia's 13, 17, 5); each lane's two 16-bit halves
    // are two uniform values whose difference is one triangular value, in 1/65536 LSB.
    v8u s = *dither;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    *dither = s;
    v8i triangular = (v8i)(s & 0xFFFF) - (v8i)(s >> 16);
    const double full = bits == 24 ? 8388608.0 : 32768.0;
    const v4d unit = {1.0 / 65536, 1.0 / 65536, 1.0 / 65536, 1.0 / 65536};
    const v4d scale = {full, full, full, full};
    const v4d low = {-full, -full, -full, -full}, high = {full - 1, full - 1, full - 1, full - 1};
    // Rounds to the nearest integer (ties to even) by the 1.5·2^52 trick: plain arithmetic.
    const v4d magic = {6755399441055744.0, 6755399441055744.0, 6755399441055744.0, 6755399441055744.0};
    v4d first, second;
    memcpy(&first, signal, sizeof first);
    memcpy(&second, signal + 4, sizeof second);
    v4d first_dither = __builtin_convertvector(__builtin_shufflevector(triangular, triangular, 0, 1, 2, 3), v4d);
    v4d second_dither = __builtin_convertvector(__builtin_shufflevector(triangular, triangular, 4, 5, 6, 7), v4d);
    first = first * scale + first_dither * unit;
    second = second * scale + second_dither * unit;
    first = (clamp(first, low, high) + magic) - magic;
    second = (clamp(second, low, high) + magic) - magic;
    v4i first_integers = __builtin_convertvector(first, v4i), second_integers = __builtin_convertvector(second, v4i);
    return __builtin_shufflevector(first_integers, second_integers, 0, 1, 2, 3, 4, 5, 6, 7);
}

/// One block of four frames to 16-bit samples.
ALWAYS_INLINE void narrow_four(const double *signal, int channels, v8u *dither, int16_t *output)
{
    v8s samples = __builtin_convertvector(quantize_four(signal, dither, 16), v8s);
    if (channels == 2) {
        memcpy(output, &samples, sizeof samples);
    } else {
        for (int f = 0; f < 4; f++) output[f] = samples[2 * f];
    }
}

/// One block of four frames to 24-bit values at the top of 32-bit samples.
ALWAYS_INLINE void narrow_four24(const double *signal, int channels, v8u *dither, int32_t *output)
{
    v8i samples = quantize_four(signal, dither, 24) << 8;
    if (channels == 2) {
        memcpy(output, &samples, sizeof samples);
    } else {
        for (int f = 0; f < 4; f++) output[f] = samples[2 * f];
    }
}

/// Narrows with `four` a block at a time, the last one to three frames through a block
/// padded with silence. A macro, so that each sample type has its own loop.
#define NARROW_BLOCKS(four, sample_type)                                                                              \
    v8u dither;                                                                                                       \
    memcpy(&dither, state->lanes, sizeof dither);                                                                     \
    size_t f = 0;                                                                                                     \
    for (; f + 4 <= frames; f += 4) four(signal + 2 * f, channels, &dither, output + (size_t)channels * f);           \
    if (f < frames) {                                                                                                 \
        double padded[8] = {0};                                                                                       \
        sample_type narrowed[8];                                                                                      \
        memcpy(padded, signal + 2 * f, (frames - f) * 2 * sizeof(double));                                            \
        four(padded, channels, &dither, narrowed);                                                                    \
        memcpy(output + (size_t)channels * f, narrowed, (frames - f) * (size_t)channels * sizeof(sample_type));       \
    }                                                                                                                 \
    memcpy(state->lanes, &dither, sizeof dither);

ALWAYS_INLINE void narrow(const double *signal, size_t frames, int channels, playbackd_dither *state, int16_t *output)
{
    NARROW_BLOCKS(narrow_four, int16_t)
}

ALWAYS_INLINE void narrow24(
    const double *signal, size_t frames, int channels, playbackd_dither *state, int32_t *output)
{
    NARROW_BLOCKS(narrow_four24, int32_t)
}

playbackd_dither playbackd_dither_seeded(uint64_t seed)
{
    // splitmix64 spreads one seed over the lanes (xorshift32 must not start at zero).
    playbackd_dither dither;
    for (int lane = 0; lane < 8; lane++) {
        seed += 0x9E3779B97F4A7C15ULL;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        dither.lanes[lane] = (uint32_t)z | 1;
    }
    return dither;
}

// MARK: - One source, two targets

#define DEFINE_KERNELS(suffix, attributes, fused)                                                                     \
    attributes static void cascade_##suffix(                                                                          \
        double *signal, size_t frames, const playbackd_biquad *bands, playbackd_biquad_state *states,                 \
        size_t count, double gain)                                                                                    \
    {                                                                                                                 \
        cascade(fused, signal, frames, bands, states, count, gain);                                                   \
    }                                                                                                                 \
    attributes static void widen_##suffix(const int16_t *input, size_t frames, int channels, double *signal)          \
    {                                                                                                                 \
        widen(input, frames, channels, signal);                                                                       \
    }                                                                                                                 \
    attributes static void narrow_##suffix(                                                                           \
        const double *signal, size_t frames, int channels, playbackd_dither *dither, int16_t *output)                 \
    {                                                                                                                 \
        narrow(signal, frames, channels, dither, output);                                                             \
    }                                                                                                                 \
    attributes static void widen32_##suffix(const int32_t *input, size_t frames, int channels, double *signal)        \
    {                                                                                                                 \
        widen32(input, frames, channels, signal);                                                                     \
    }                                                                                                                 \
    attributes static void narrow24_##suffix(                                                                         \
        const double *signal, size_t frames, int channels, playbackd_dither *dither, int32_t *output)                 \
    {                                                                                                                 \
        narrow24(signal, frames, channels, dither, output);                                                           \
    }

DEFINE_KERNELS(portable, , 0)
#if defined(__x86_64__)
DEFINE_KERNELS(avx2, __attribute__((target("avx2,fma"))), 1)
#endif

static _Atomic int selected = PLAYBACKD_SOUND_KERNEL_PORTABLE;

playbackd_sound_kernel playbackd_sound_kernel_best(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return PLAYBACKD_SOUND_KERNEL_PORTABLE;
    const unsigned fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (fma | osxsave | avx)) != (fma | osxsave | avx)) return PLAYBACKD_SOUND_KERNEL_PORTABLE;
    // The operating system saves the vector registers' upper halves (XCR0: SSE and AVX state).
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6) return PLAYBACKD_SOUND_KERNEL_PORTABLE;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return PLAYBACKD_SOUND_KERNEL_PORTABLE;
    if (b & (1u << 5)) return PLAYBACKD_SOUND_KERNEL_AVX2;
#endif
    return PLAYBACKD_SOUND_KERNEL_PORTABLE;
}

int playbackd_sound_kernel_select(playbackd_sound_kernel kernel)
{
    if (kernel == PLAYBACKD_SOUND_KERNEL_AVX2 && playbackd_sound_kernel_best() != PLAYBACKD_SOUND_KERNEL_AVX2)
        return -1;
    if (kernel != PLAYBACKD_SOUND_KERNEL_PORTABLE && kernel != PLAYBACKD_SOUND_KERNEL_AVX2) return -1;
    atomic_store_explicit(&selected, kernel, memory_order_relaxed);
    return 0;
}

playbackd_sound_kernel playbackd_sound_kernel_selected(void)
{
    return (playbackd_sound_kernel)atomic_load_explicit(&selected, memory_order_relaxed);
}

void playbackd_biquad_cascade_using(
    playbackd_sound_kernel kernel, double *signal, size_t frames, const playbackd_biquad *bands,
    playbackd_biquad_state *states, size_t count, double gain)
{
#if defined(__x86_64__)
    // A filter's memory decays toward zero through the subnormal numbers after the music
    // stops, where many processors take a hundred cycles an operation. Subnormal inputs and
    // results count as zero while the cascade runs (MXCSR's DAZ and FTZ; as PipeWire's data
    // thread does), and the caller's mode comes back after.
    const unsigned mode = _mm_getcsr();
    _mm_setcsr(mode | 0x8040);
    if (kernel == PLAYBACKD_SOUND_KERNEL_AVX2)
        cascade_avx2(signal, frames, bands, states, count, gain);
    else
        cascade_portable(signal, frames, bands, states, count, gain);
    _mm_setcsr(mode);
#else
    (void)kernel;
    cascade_portable(signal, frames, bands, states, count, gain);
#endif
}

void playbackd_sound_narrow_using(
    playbackd_sound_kernel kernel, const double *signal, size_t frames, int channels, playbackd_dither *dither,
    int16_t *output)
{
#if defined(__x86_64__)
    if (kernel == PLAYBACKD_SOUND_KERNEL_AVX2) {
        narrow_avx2(signal, frames, channels, dither, output);
        return;
    }
#endif
    narrow_portable(signal, frames, channels, dither, output);
}

void playbackd_biquad_cascade(
    double *signal, size_t frames, const playbackd_biquad *bands, playbackd_biquad_state *states, size_t count,
    double gain)
{
    playbackd_biquad_cascade_using(playbackd_sound_kernel_selected(), signal, frames, bands, states, count, gain);
}

void playbackd_sound_widen(const int16_t *input, size_t frames, int channels, double *signal)
{
#if defined(__x86_64__)
    if (playbackd_sound_kernel_selected() == PLAYBACKD_SOUND_KERNEL_AVX2) {
        widen_avx2(input, frames, channels, signal);
        return;
    }
#endif
    widen_portable(input, frames, channels, signal);
}

void playbackd_sound_narrow(
    const double *signal, size_t frames, int channels, playbackd_dither *dither, int16_t *output)
{
    playbackd_sound_narrow_using(playbackd_sound_kernel_selected(), signal, frames, channels, dither, output);
}

void playbackd_sound_widen32(const int32_t *input, size_t frames, int channels, double *signal)
{
#if defined(__x86_64__)
    if (playbackd_sound_kernel_selected() == PLAYBACKD_SOUND_KERNEL_AVX2) {
        widen32_avx2(input, frames, channels, signal);
        return;
    }
#endif
    widen32_portable(input, frames, channels, signal);
}

void playbackd_sound_narrow24(
    const double *signal, size_t frames, int channels, playbackd_dither *dither, int32_t *output)
{
#if defined(__x86_64__)
    if (playbackd_sound_kernel_selected() == PLAYBACKD_SOUND_KERNEL_AVX2) {
        narrow24_avx2(signal, frames, channels, dither, output);
        return;
    }
#endif
    narrow24_portable(signal, frames, channels, dither, output);
}
