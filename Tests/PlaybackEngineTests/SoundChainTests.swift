import AudioAnalysis
import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// The sound chain in-process: every cookbook filter against its analytic response, bit-exact
/// when transparent, stable at 32 Hz, click-free changes, and the lock-free handoff.
@Suite struct SoundChainTests {
    /// A stereo sine of `amplitude` (of full scale) at `frequency`, `seconds` long, 16-bit.
    static func sine(_ frequency: Double, sampleRate: Int, seconds: Double, amplitude: Double = 0.25) -> [Int16] {
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Int16](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let value = Int16(
                (amplitude * 32767 * sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate))).rounded())
            samples[frame * 2] = value
            samples[frame * 2 + 1] = value
        }
        return samples
    }

    static func amplitude(
        _ samples: [Int16], _ frequency: Double, sampleRate: Int, from: Int, channel: Int = 0
    ) -> Double {
        ToneAnalysis.amplitude(samples, frequency, sampleRate: sampleRate, from: from, channel: channel)
    }

    static func run(_ chain: inout SoundChain, _ input: [Int16]) -> [Int16] {
        var output = [Int16](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { chain.process(source, into: $0) }
        }
        return output
    }

    static func parameters(_ equalizer: Equalizer, volume: Double = 1) -> SoundParameters {
        let control = SoundControl()
        control.set(SoundSettings(equalizer: equalizer, volume: volume))
        var parameters = SoundParameters()
        _ = control.read(ifNewerThan: .max, into: &parameters)
        return parameters
    }

    @Test(
        "each filter type's measured gain matches the cookbook's magnitude within 0.1 dB",
        arguments: [44100, 48000])
    func frequencyResponse(sampleRate: Int) {
        let cases: [(EQBand, [Double])] = [
            (EQBand(type: .parametric, frequency: 1000, bandwidth: 1, gain: 6), [250, 700, 1000, 1400, 4000]),
            (EQBand(type: .parametric, frequency: 64, bandwidth: 0.5, gain: -9), [40, 64, 90]),
            (EQBand(type: .lowShelf, frequency: 200, gain: 5), [60, 200, 800]),
            (EQBand(type: .highShelf, frequency: 4000, gain: -6), [1000, 4000, 12000]),
            (EQBand(type: .lowPass, frequency: 2000), [500, 2000, 6000]),
            (EQBand(type: .highPass, frequency: 300), [100, 300, 1000]),
            (EQBand(type: .bandPass, frequency: 1000, bandwidth: 2), [300, 1000, 3000]),
            (EQBand(type: .bandStop, frequency: 1000, bandwidth: 1), [500, 900, 2000]),
            (EQBand(type: .resonantLowPass, frequency: 3000, bandwidth: 0.5), [1000, 3000, 8000]),
            (EQBand(type: .resonantHighPass, frequency: 500, bandwidth: 0.5), [200, 500, 2000]),
            (EQBand(type: .resonantLowShelf, frequency: 300, bandwidth: 1, gain: 4), [100, 300, 1200]),
            (EQBand(type: .resonantHighShelf, frequency: 3000, bandwidth: 1, gain: -4), [800, 3000, 10000]),
        ]
        for (band, probes) in cases {
            let parameters = Self.parameters(Equalizer(isEnabled: true, bands: [band]))
            let stage = ChainStage(parameters, sampleRate: Double(sampleRate))
            for probe in probes {
                var chain = SoundChain(channels: 2, sampleRate: sampleRate, scratch: SoundScratch(frames: 1 << 20))
                chain.apply(parameters)
                let input = Self.sine(probe, sampleRate: sampleRate, seconds: 1.5)
                let output = Self.run(&chain, input)
                let settle = sampleRate / 2
                let measured =
                    20
                    * log10(
                        Self.amplitude(output, probe, sampleRate: sampleRate, from: settle)
                            / Self.amplitude(input, probe, sampleRate: sampleRate, from: settle))
                let expected =
                    20
                    * log10(
                        BiquadCoefficients(band, sampleRate: Double(sampleRate)).magnitude(
                            at: probe, sampleRate: Double(sampleRate)) * stage.gain)
                #expect(
                    abs(measured - expected) < 0.1,
                    "\(band.type) \(band.frequency) Hz at \(probe) Hz: \(measured) dB, expected \(expected)")
            }
        }
    }

    @Test("transparent settings are a bit-exact copy; any gain or band is not")
    func transparent() {
        let input = Self.sine(440, sampleRate: 44100, seconds: 0.2)
        for equalizer in [
            Equalizer(), Equalizer(isEnabled: true),
            Equalizer(isEnabled: false, bands: [EQBand(type: .parametric, frequency: 100, gain: 12)]),
            Equalizer(isEnabled: true, bands: [EQBand(type: .lowPass, frequency: 100, bypass: true)]),
        ] {
            var chain = SoundChain(channels: 2, sampleRate: 44100, scratch: SoundScratch(frames: 1 << 20))
            chain.apply(Self.parameters(equalizer))
            #expect(Self.run(&chain, Array(input.prefix(2000))) != [], "warm-up")
            #expect(Self.run(&chain, input) == input, "\(equalizer)")
        }
        var chain = SoundChain(channels: 2, sampleRate: 44100, scratch: SoundScratch(frames: 1 << 20))
        chain.apply(Self.parameters(Equalizer(), volume: 0.5))
        #expect(Self.run(&chain, input) != input)
    }

    @Test("32-bit samples: transparent is a bit-exact copy; a gain keeps 24 bits, dithered by one LSB of 24")
    func twentyFourBits() {
        // A 24-bit sine at the top of 32 bits, and its kernel's (portable or AVX2) halving.
        let input = Self.sine(440, sampleRate: 96_000, seconds: 0.2).indices.map { index in
            Int32((0.5 * 8_388_607 * sin(Double(index / 2) * 0.0288)).rounded()) << 8
        }
        func run(_ chain: inout SoundChain, _ input: [Int32]) -> [Int32] {
            var output = [Int32](repeating: 0, count: input.count)
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { chain.process(source, into: $0) }
            }
            return output
        }
        var chain = SoundChain(channels: 2, sampleRate: 96_000, scratch: SoundScratch(frames: 1 << 20))
        chain.start(with: Self.parameters(Equalizer()))
        #expect(run(&chain, input) == input)
        chain.start(with: Self.parameters(Equalizer(), volume: 0.5))
        let halved = run(&chain, input)
        #expect(halved.allSatisfy { $0 & 0xFF == 0 }, "24 bits at the top")
        let errors = zip(halved, input).map { Double(($0 >> 8) - ($1 >> 9)) }
        #expect(errors.allSatisfy { abs($0) <= 2 }, "within the dither of one 24-bit LSB")
        #expect(Set(errors).count > 2, "dithered, not truncated")
        // Far below a 16-bit LSB (256 at 24 bits): the 24 bits are kept, not narrowed to 16.
        #expect((errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot() < 2)
    }

    @Test("six channels: the volume scales each alike (within the dither); the equalizer, made for two, is not applied")
    func sixChannels() {
        let input = (0..<6_000).map { Int16(truncatingIfNeeded: ($0 % 6 + 1) * 3_000 - ($0 / 6 % 7) * 100) }
        var chain = SoundChain(channels: 6, sampleRate: 48_000, scratch: SoundScratch(frames: 1 << 20))
        chain.start(with: Self.parameters(Equalizer()))
        #expect(Self.run(&chain, input) == input)
        let boost = Equalizer(isEnabled: true, bands: [EQBand(type: .parametric, frequency: 1_000, gain: 12)])
        chain.start(with: Self.parameters(boost, volume: 0.5))
        let halved = Self.run(&chain, input)
        #expect(zip(halved, input).allSatisfy { abs(Double($0) - Double($1) / 2) <= 1.5 })
    }

    @Test(
        "a block longer than the scratch space is processed a scratch at a time, as one block would be; after a crossfade to transparent settings the rest is a plain copy"
    )
    func blocksLongerThanTheScratch() {
        let input = Self.sine(440, sampleRate: 44100, seconds: 0.5)
        let boosted = Self.parameters(
            Equalizer(isEnabled: true, bands: [EQBand(type: .parametric, frequency: 440, gain: 6)]))
        for mono in [false, true] {
            let channels = mono ? 1 : 2
            let samples = mono ? stride(from: 0, to: input.count, by: 2).map { input[$0] } : input
            var whole = SoundChain(channels: channels, sampleRate: 44100, scratch: SoundScratch(frames: 1 << 20))
            var pieces = SoundChain(channels: channels, sampleRate: 44100, scratch: SoundScratch(frames: 100))
            whole.apply(boosted)
            pieces.apply(boosted)
            #expect(Self.run(&pieces, samples) == Self.run(&whole, samples), "\(channels) channels")
            // Back to transparent: the 5 ms crossfade (221 frames) ends in the third piece of
            // 100; from the fourth on, every sample is the input's.
            pieces.apply(Self.parameters(Equalizer()))
            let back = Self.run(&pieces, samples)
            #expect(back[..<(200 * channels)] != samples[..<(200 * channels)])
            #expect(back[(300 * channels)...] == samples[(300 * channels)...])
        }
    }

    @Test("the 32 Hz band at its narrowest and +24 dB stays stable and bounded at 44.1 and 48 kHz")
    func lowBandStability() {
        for sampleRate in [44100, 48000] {
            let band = EQBand(type: .parametric, frequency: 32, bandwidth: 0.05, gain: 24)
            var chain = SoundChain(channels: 2, sampleRate: sampleRate, scratch: SoundScratch(frames: 1 << 20))
            chain.apply(Self.parameters(Equalizer(isEnabled: true, bands: [band])))
            var generator = SplitMix64(seed: 1)
            let noise = (0..<(sampleRate * 10 * 2)).map { _ in Int16.random(in: -8000...8000, using: &generator) }
            let output = Self.run(&chain, noise)
            let tail = output.suffix(sampleRate)
            #expect(tail.contains { $0 != 0 }, "still producing output")
            #expect(tail.allSatisfy { $0 > -32768 && $0 < 32767 }, "the automatic preamp keeps it from clipping")
        }
    }

    /// A cut rather than a boost: the automatic preamp takes a boost's peak off again, so a
    /// +12 dB band on a sine at its own frequency leaves the level as it was.
    @Test("a band cut by 12 dB and back while a 1 kHz sine plays never jumps more than the sine's slope")
    func noClick() {
        let sampleRate = 44100
        let input = Self.sine(1000, sampleRate: sampleRate, seconds: 1, amplitude: 0.1)
        var chain = SoundChain(channels: 2, sampleRate: sampleRate, scratch: SoundScratch(frames: 1 << 20))
        var output: [Int16] = []
        let chunk = 4410
        for (index, start) in stride(from: 0, to: input.count, by: chunk * 2).enumerated() {
            if index == 3 || index == 6 {
                let gain = index == 3 ? -12.0 : 0.0
                chain.apply(
                    Self.parameters(
                        Equalizer(isEnabled: true, bands: [EQBand(type: .parametric, frequency: 1000, gain: gain)])))
            }
            output += Self.run(&chain, Array(input[start..<min(input.count, start + chunk * 2)]))
        }
        let loudest = Double(output.map { abs(Int($0)) }.max() ?? 0)
        let slope = loudest * 2 * Double.pi * 1000 / Double(sampleRate)
        var worst = 0
        for frame in 1..<(output.count / 2) {
            worst = max(worst, abs(Int(output[frame * 2]) - Int(output[(frame - 1) * 2])))
        }
        #expect(Double(worst) <= slope * 1.05 + 2, "largest step \(worst), the sine's own \(slope)")
        let cut = Self.amplitude(
            Array(output[(chunk * 2 * 4)..<(chunk * 2 * 6)]), 1000, sampleRate: sampleRate, from: 0)
        let after = Self.amplitude(Array(output[(chunk * 2 * 7)...]), 1000, sampleRate: sampleRate, from: 0)
        #expect(abs(20 * log10(cut / after) + 12) < 0.1, "the cut was applied: \(20 * log10(cut / after)) dB")
    }

    /// Pink noise by Paul Kellet's refined filter of white noise, stereo, about -20 dBFS RMS.
    static func pinkNoise(frames: Int, seed: UInt64) -> [Int16] {
        var generator = SplitMix64(seed: seed)
        var b = [Double](repeating: 0, count: 7)
        var output = [Int16](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let white = Double.random(in: -1...1, using: &generator)
            b[0] = 0.99886 * b[0] + white * 0.0555179
            b[1] = 0.99332 * b[1] + white * 0.0750759
            b[2] = 0.96900 * b[2] + white * 0.1538520
            b[3] = 0.86650 * b[3] + white * 0.3104856
            b[4] = 0.55000 * b[4] + white * 0.5329522
            b[5] = -0.7616 * b[5] - white * 0.0168980
            let pink = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
            b[6] = white * 0.115926
            let sample = Int16(max(-32768, min(32767, (pink * 0.05 * 32768).rounded())))
            output[frame * 2] = sample
            output[frame * 2 + 1] = sample
        }
        return output
    }

    @Test(
        "the warm preset's ten-band curve changes each octave band of pink noise as its response predicts, within 0.5 dB"
    )
    func seedCurveOnPinkNoise() {
        let sampleRate = 44100
        let gains: [Double] = [3, 3, 3, 2, 0, -6, -6, -6, -6, -6]
        let equalizer = EqualizerPreset.tenBand(gains)
        let parameters = Self.parameters(equalizer)
        let stage = ChainStage(parameters, sampleRate: Double(sampleRate))
        var chain = SoundChain(channels: 2, sampleRate: sampleRate, scratch: SoundScratch(frames: 1 << 21))
        chain.start(with: parameters)
        let input = Self.pinkNoise(frames: sampleRate * 20, seed: 4)
        let output = Self.run(&chain, input)
        // The 16 kHz band's upper edge (22.6 kHz) is past Nyquist; it ends there.
        let centres = Equalizer.tenBandFrequencies
        let before = ToneAnalysis.octaveBandPowers(input, channel: 0, sampleRate: sampleRate, centres: centres)
        let after = ToneAnalysis.octaveBandPowers(output, channel: 0, sampleRate: sampleRate, centres: centres)
        // The prediction: each bin's input power times |H|² (every band, and the chain's gain
        // with its automatic preamp), summed over the octave.
        let size = 16_384
        let binWidth = Double(sampleRate) / Double(size)
        for (index, centre) in centres.enumerated() {
            let low = max(1, Int((centre / 2.0.squareRoot() / binWidth).rounded(.up)))
            let high = min(size / 2, Int((centre * 2.0.squareRoot() / binWidth).rounded(.up)))
            var predictedRatio = 0.0
            var weight = 0.0
            for bin in low..<high {
                let f = Double(bin) * binWidth
                var magnitude = stage.gain
                for band in 0..<stage.bandCount {
                    magnitude *= stage.bands[band].magnitude(at: f, sampleRate: Double(sampleRate))
                }
                let pinkPower = 1 / f
                predictedRatio += pinkPower * magnitude * magnitude
                weight += pinkPower
            }
            let predicted = 10 * log10(predictedRatio / weight)
            let measured = 10 * log10(after[index] / before[index])
            #expect(abs(measured - predicted) < 0.5, "\(centre) Hz: \(measured) dB, predicted \(predicted)")
        }
        let change = zip(after, before).map { 10 * log10($0 / $1) }
        #expect(change[1] - change[7] > 8, "the bass is lifted against the treble: \(change)")
    }

    @Test("the handoff delivers the last complete settings once, and nothing when unchanged")
    func handoff() {
        let control = SoundControl()
        var parameters = SoundParameters()
        let first = control.read(ifNewerThan: .max, into: &parameters)
        #expect(first != nil)
        #expect(control.read(ifNewerThan: first!, into: &parameters) == nil)
        let bands = (0..<10).map { EQBand(type: .ordered[$0 % 11], frequency: 100 * Double($0 + 1), gain: Double($0)) }
        control.set(SoundSettings(equalizer: Equalizer(isEnabled: true, bands: bands, globalGain: -3), volume: 0.5))
        let second = control.read(ifNewerThan: first!, into: &parameters)
        #expect(second != nil && second != first)
        #expect(parameters.bandCount == 10 && parameters.volume == 0.5 && parameters.globalGain == -3)
        #expect((0..<10).allSatisfy { parameters.bands[$0] == bands[$0] })
    }

    @Test("the sleep fade: untouched before it, the level falling without a step to silence at its end, silent after")
    func sleepFade() {
        let input = Self.sine(1000, sampleRate: 44100, seconds: 1, amplitude: 0.5)
        var chain = SoundChain(channels: 2, sampleRate: 44100, scratch: SoundScratch(frames: 4096))
        var parameters = Self.parameters(Equalizer())
        // From 0.25 s to 0.75 s (ring samples: frames times two channels).
        parameters.fadeStart = 22_050
        parameters.fadeEnd = 66_150
        chain.start(with: parameters)
        #expect(chain.isTransparent(forSamples: 22_050) && !chain.isTransparent(forSamples: 22_052))
        // In blocks of 1000 samples, as the output loop hands them over.
        var output: [Int16] = []
        for start in stride(from: 0, to: input.count, by: 1000) {
            chain.position = start
            let block = Array(input[start..<min(input.count, start + 1000)])
            output += Self.run(&chain, block)
        }
        // Bit for bit up to the block the fade begins in (that block is processed: dithered).
        let untouched = output[..<22_000] == input[..<22_000]
        #expect(untouched, "before the fade, bit for bit")
        let dithered = zip(output[22_000..<22_050], input[22_000..<22_050]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        #expect(dithered, "the fade's first block before it starts: at full level")
        let silent = output[66_150...].allSatisfy { abs(Int($0)) <= 1 }
        #expect(silent, "silent after it (dither aside)")
        let peaks = stride(from: 22_050, to: 66_150, by: 882).map { start in
            output[start..<(start + 882)].map { abs(Int($0)) }.max() ?? 0
        }
        #expect(zip(peaks, peaks.dropFirst()).allSatisfy { $1 <= $0 }, "falls steadily: \(peaks)")
        #expect(peaks.first! > 15_000 && peaks.last! < 200, "\(peaks)")
        let steps = zip(output, output.dropFirst(2)).map { abs(Int($1) - Int($0)) }
        let tone = zip(input, input.dropFirst(2)).map { abs(Int($1) - Int($0)) }.max()!
        #expect(steps.max()! <= tone + 2, "no step larger than the tone's own")
    }

    @Test("a fade that should have begun before what is processed begins there, without a step")
    func lateSleepFade() {
        let input = Self.sine(1000, sampleRate: 44100, seconds: 0.5, amplitude: 0.5)
        var chain = SoundChain(channels: 2, sampleRate: 44100, scratch: SoundScratch(frames: 4096))
        chain.start(with: Self.parameters(Equalizer()))
        chain.position = 20_000
        var parameters = Self.parameters(Equalizer())
        (parameters.fadeStart, parameters.fadeEnd) = (0, 20_002)
        chain.apply(parameters)
        let output = Self.run(&chain, input)
        let steps = zip(output, output.dropFirst(2)).map { abs(Int($1) - Int($0)) }
        let tone = zip(input, input.dropFirst(2)).map { abs(Int($1) - Int($0)) }.max()!
        #expect(steps.max()! <= tone + 2, "a 5 ms fade at least")
        let silent = output[882...].allSatisfy { abs(Int($0)) <= 1 }
        #expect(silent)
    }
}
