import CSoundKernel
import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// The sound chain's vector loops, each implementation this processor runs (the portable one,
/// and AVX2 with FMA where there is one): the wavefront is the plain cascade, and the
/// narrowing to 16 bits dithers as TPDF dither must.
@Suite struct SoundKernelTests {
    static let kernels: [playbackd_sound_kernel] =
        playbackd_sound_kernel_best() == PLAYBACKD_SOUND_KERNEL_AVX2
        ? [PLAYBACKD_SOUND_KERNEL_PORTABLE, PLAYBACKD_SOUND_KERNEL_AVX2] : [PLAYBACKD_SOUND_KERNEL_PORTABLE]

    @Test(
        "the wavefront gives the plain cascade's output (to 1e-12; fused multiply-adds round differently), for 1 to 16 bands and blocks of any size",
        arguments: kernels)
    func wavefrontIsTheCascade(kernel: playbackd_sound_kernel) {
        let sampleRate = 44_100.0
        let types: [EQFilterType] = [.parametric, .lowShelf, .highShelf, .parametric, .bandStop, .resonantLowPass]
        let bands = (0..<16).map {
            BiquadCoefficients(
                EQBand(
                    type: types[$0 % types.count], frequency: 30 * pow(1.5, Double($0)), bandwidth: 0.7,
                    gain: Double($0 % 3) * 4 - 5), sampleRate: sampleRate)
        }
        var generator = SplitMix64(seed: 9)
        let input = (0..<3000).map { _ in Double.random(in: -0.5...0.5, using: &generator) }
        let gain = 0.8
        for count in 1...16 {
            var signal = input
            var states = [playbackd_biquad_state](repeating: playbackd_biquad_state(), count: count)
            let coefficients = bands.prefix(count).map {
                playbackd_biquad(b0: $0.b0, b1: $0.b1, b2: $0.b2, a1: $0.a1, a2: $0.a2)
            }
            // Blocks of uneven sizes, shorter and longer than the wavefront, carry the state on.
            var start = 0
            for size in [1, 2, 5, 997, 1, 13, 481] where start < input.count / 2 {
                let frames = min(size, input.count / 2 - start)
                signal.withUnsafeMutableBufferPointer { samples in
                    playbackd_biquad_cascade_using(
                        kernel, samples.baseAddress! + start * 2, frames, coefficients, &states, count, gain)
                }
                start += frames
            }
            var reference = input
            var plain = [StereoState](repeating: StereoState(), count: count)
            for frame in 0..<input.count / 2 {
                var x = SIMD2(reference[frame * 2], reference[frame * 2 + 1])
                for band in 0..<count {
                    let c = bands[band]
                    let y = c.b0 * x + plain[band].z1
                    plain[band].z1 = c.b1 * x - c.a1 * y + plain[band].z2
                    plain[band].z2 = c.b2 * x - c.a2 * y
                    x = y
                }
                reference[frame * 2] = x.x * gain
                reference[frame * 2 + 1] = x.y * gain
            }
            let error = zip(signal, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(error < 1e-12, "\(count) bands: largest difference \(error)")
            let memory =
                zip(states, plain).map {
                    [$0.z1.0 - $1.z1.x, $0.z1.1 - $1.z1.y, $0.z2.0 - $1.z2.x, $0.z2.1 - $1.z2.y].map(abs).max()!
                }.max() ?? 0
            #expect(memory < 1e-12, "\(count) bands: the memory carried on differs by \(memory)")
        }
    }

    @Test(
        "narrowing dithers: a constant a quarter of a step above zero comes out as -1, 0 or 1 with that mean, and the error's power is TPDF's 1/4 step squared",
        arguments: kernels)
    func narrowingDithers(kernel: playbackd_sound_kernel) {
        for channels in [1, 2] {
            // Not a multiple of four frames: the last ones go through the padded block.
            let frames = 65_539
            let level = 0.25
            let signal = [Double](repeating: level / 32768, count: frames * 2)
            var output = [Int16](repeating: .min, count: frames * channels + 1)
            var dither = playbackd_dither_seeded(42)
            playbackd_sound_narrow_using(kernel, signal, frames, Int32(channels), &dither, &output)
            #expect(output.last == .min, "nothing is written past the frames")
            let samples = output.dropLast().map(Double.init)
            #expect(samples.allSatisfy { [-1, 0, 1].contains($0) })
            let mean = samples.reduce(0, +) / Double(samples.count)
            let power = samples.map { ($0 - level) * ($0 - level) }.reduce(0, +) / Double(samples.count)
            #expect(abs(mean - level) < 0.01, "\(channels) channels: mean \(mean)")
            #expect(abs(power - 0.25) < 0.01, "\(channels) channels: error power \(power)")
        }
    }

    @Test("narrowing keeps each sample within a step of its exact value and clamps to 16 bits", arguments: kernels)
    func narrowingClamps(kernel: playbackd_sound_kernel) {
        let values: [Double] = [0, 0.5, -0.5, 1.5, -1.5, 2, -2, 100]
        let signal = values.flatMap { [$0, -$0] }
        var output = [Int16](repeating: 0, count: signal.count)
        var dither = playbackd_dither_seeded(7)
        playbackd_sound_narrow_using(kernel, signal, values.count, 2, &dither, &output)
        for (index, value) in values.enumerated() {
            for (channel, sample) in [value, -value].enumerated() {
                let exact = min(max(sample * 32768, -32768), 32767)
                let written = Double(output[index * 2 + channel])
                #expect(abs(written - exact) <= 1, "\(sample) became \(written)")
            }
        }
    }
}

extension SoundKernelTests {
    #if arch(x86_64)
        @Test(
            "a result below the smallest normal number is zero in the cascade (subnormals are slow), and only there",
            arguments: kernels)
        func subnormalsFlushToZero(kernel: playbackd_sound_kernel) {
            // 1e-10 · 1e-300 is subnormal: the band's output and its memory.
            var signal = [1e-10, 1e-10]
            var state = playbackd_biquad_state()
            let band = playbackd_biquad(b0: 1e-300, b1: 1e-300, b2: 0, a1: 0, a2: 0)
            playbackd_biquad_cascade_using(kernel, &signal, 1, [band], &state, 1, 1)
            #expect(signal == [0, 0])
            #expect(state.z1 == (0, 0))
            let outside = 1e-10 * 1e-300
            #expect(outside > 0, "the caller's mode comes back after")
        }
    #endif
}
