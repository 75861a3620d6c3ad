import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The output thread's processing of 16-bit samples: preamp, the equalizer's biquads, global
/// gain and volume in 64-bit floating point, then TPDF dither back to 16 bits. Transparent
/// settings are a plain copy, bit for bit. A change crossfades from the old chain's output to
/// the new one's over `crossfadeMilliseconds` (the new filters start from the old ones'
/// memory), so it never clicks. It works a block at a time, one band over the whole block
/// (the band's coefficients and memory stay in registers), in scratch space allocated with
/// the pipeline: nothing here allocates, locks or logs. One per pipeline, used by its output
/// thread alone.
struct SoundChain {
    static let crossfadeMilliseconds = 5
    /// Mono and stereo: the decoder delivers no more.
    static let maximumChannels = 2

    let channels: Int
    let sampleRate: Double
    private var current = ChainStage.identity
    private var previous = ChainStage.identity
    private var states = InlineArray<16, StereoState>(repeating: StereoState())
    private var previousStates = InlineArray<16, StereoState>(repeating: StereoState())
    private var fadeFrame = 0
    private let fadeFrames: Int
    private var dither = TriangularDither()
    private let scratch: SoundScratch

    /// `scratch` holds at least as many frames as one `process` call is given.
    init(channels: Int, sampleRate: Int, scratch: SoundScratch) {
        precondition(channels >= 1 && channels <= Self.maximumChannels)
        self.channels = channels
        self.sampleRate = Double(sampleRate)
        self.scratch = scratch
        fadeFrames = max(1, sampleRate * Self.crossfadeMilliseconds / 1000)
        fadeFrame = fadeFrames
    }

    /// Whether `process` is a plain copy now (transparent settings, no crossfade running).
    var isTransparent: Bool { current.isIdentity && fadeFrame >= fadeFrames }

    /// The settings a pipeline starts with, at once.
    mutating func start(with parameters: SoundParameters) {
        current = ChainStage(parameters, sampleRate: sampleRate)
        fadeFrame = fadeFrames
    }

    /// Takes new settings; the output crossfades to them (unless both are transparent).
    mutating func apply(_ parameters: SoundParameters) {
        previous = current
        previousStates = states
        current = ChainStage(parameters, sampleRate: sampleRate)
        fadeFrame = previous.isIdentity && current.isIdentity ? fadeFrames : 0
    }

    /// Processes `input` (interleaved frames, at most the scratch's capacity) into `output`,
    /// which holds at least as many samples.
    mutating func process(_ input: UnsafeBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<Int16>) {
        if isTransparent {
            _ = output.initialize(from: input)
            return
        }
        let frames = min(input.count / channels, scratch.frames)
        let signal = scratch.signal
        let stereo = channels == 2
        let unit = 1.0 / 32768
        if stereo {
            for frame in 0..<frames {
                signal[frame] = SIMD2(Double(input[frame * 2]), Double(input[frame * 2 + 1])) * unit
            }
        } else {
            for frame in 0..<frames { signal[frame] = SIMD2(repeating: Double(input[frame]) * unit) }
        }
        let fading = min(frames, fadeFrames - fadeFrame)
        if fading > 0 {
            let old = scratch.fade
            old.update(from: signal, count: fading)
            previous.run(old, count: fading, &previousStates)
            current.run(signal, count: frames, &states)
            for frame in 0..<fading {
                let t = Double(fadeFrame + frame) / Double(fadeFrames)
                signal[frame] = old[frame] * (1 - t) + signal[frame] * t
            }
            fadeFrame += fading
        } else {
            current.run(signal, count: frames, &states)
        }
        // Both channels at once: dither, clamp, and round to the nearest integer by the
        // 1.5·2^52 trick (plain SSE2 arithmetic; `rounded()` is a libm call there).
        let magic = SIMD2<Double>(repeating: 6_755_399_441_055_744)
        let low = SIMD2<Double>(repeating: -32768)
        let high = SIMD2<Double>(repeating: 32767)
        for frame in 0..<frames {
            var value = signal[frame] * 32768 + dither.nextPair()
            value = value.clamped(lowerBound: low, upperBound: high)
            let rounded = (value + magic) - magic
            output[frame * channels] = Int16(rounded.x)
            if stereo { output[frame * channels + 1] = Int16(rounded.y) }
        }
    }
}

/// Scratch space for one pipeline's `SoundChain`, allocated with the pipeline (on the control
/// thread) so that the output thread never allocates.
final class SoundScratch: @unchecked Sendable {
    let frames: Int
    let signal: UnsafeMutablePointer<SIMD2<Double>>
    let fade: UnsafeMutablePointer<SIMD2<Double>>

    init(frames: Int) {
        self.frames = frames
        signal = .allocate(capacity: frames)
        fade = .allocate(capacity: frames)
        signal.initialize(repeating: .zero, count: frames)
        fade.initialize(repeating: .zero, count: frames)
    }

    deinit {
        signal.deallocate()
        fade.deallocate()
    }
}

/// Both channels' memory of one biquad, as one SIMD value.
struct StereoState: Sendable {
    var z1 = SIMD2<Double>(), z2 = SIMD2<Double>()
}

/// The chain for one set of settings at one sample rate: the active bands' coefficients and
/// one overall gain (the item's ReplayGain, preamp, automatic preamp, global gain and volume;
/// all linear, so their order does not matter).
struct ChainStage: Sendable {
    var bands = InlineArray<16, BiquadCoefficients>(repeating: .identity)
    var bandCount = 0
    var gain = 1.0
    var isIdentity = true

    static let identity = ChainStage()

    init() {}

    init(_ parameters: SoundParameters, sampleRate: Double) {
        guard !parameters.isTransparent else { return }
        isIdentity = false
        var gainDB = 0.0
        if parameters.isEnabled {
            for index in 0..<parameters.bandCount where !parameters.bands[index].isFlat {
                bands[bandCount] = BiquadCoefficients(parameters.bands[index], sampleRate: sampleRate)
                bandCount += 1
            }
            gainDB = parameters.preamp + parameters.globalGain
            // The automatic preamp: whatever the bands and gains raise above 0 dB at their
            // peak is taken off, so a boost never clips.
            let peak = peakGainDB(sampleRate: sampleRate) + gainDB
            if peak > 0 { gainDB -= peak }
        }
        gain = parameters.itemGain * pow(10, gainDB / 20) * parameters.volume
    }

    /// The bands' highest combined gain, dB, over 20 Hz - 20 kHz (log-spaced, 1/24 octave).
    func peakGainDB(sampleRate: Double) -> Double {
        var peak = -Double.infinity
        var frequency = 20.0
        let top = min(20_000, sampleRate * 0.49)
        while frequency <= top {
            var magnitude = 1.0
            for index in 0..<bandCount { magnitude *= bands[index].magnitude(at: frequency, sampleRate: sampleRate) }
            peak = max(peak, 20 * log10(magnitude))
            frequency *= pow(2, 1.0 / 24)
        }
        return peak
    }

    /// Runs `count` frames of `signal` through every band, then the gain; in place.
    ///
    /// A biquad's recursion is a chain of dependent multiply-adds from one frame to the next,
    /// so one band over a block runs at the latency of that chain, not at the processor's
    /// throughput. Bands therefore run in pairs, both channels of both bands in one
    /// `SIMD4<Double>`: at step `t` the first band takes frame `t` while the second takes the
    /// first band's output for frame `t - 1` (a wavefront), which puts two independent chains
    /// in every instruction. The result is the same cascade, frame for frame.
    func run(_ signal: UnsafeMutablePointer<SIMD2<Double>>, count: Int, _ states: inout InlineArray<16, StereoState>) {
        guard !isIdentity else { return }
        var index = 0
        while index + 1 < bandCount {
            runPair(index, signal, count: count, &states)
            index += 2
        }
        if index < bandCount { runSingle(index, signal, count: count, &states) }
        if gain != 1 {
            for frame in 0..<count { signal[frame] *= gain }
        }
    }

    /// Band `index` alone over the block.
    private func runSingle(
        _ index: Int, _ signal: UnsafeMutablePointer<SIMD2<Double>>, count: Int,
        _ states: inout InlineArray<16, StereoState>
    ) {
        let c = bands[index]
        var z1 = states[index].z1
        var z2 = states[index].z2
        for frame in 0..<count {
            let x = signal[frame]
            let y = c.b0 * x + z1
            z1 = c.b1 * x - c.a1 * y + z2
            z2 = c.b2 * x - c.a2 * y
            signal[frame] = y
        }
        states[index] = StereoState(z1: z1, z2: z2)
    }

    /// Bands `index` and `index + 1` as a wavefront over the block (see `run`).
    private func runPair(
        _ index: Int, _ signal: UnsafeMutablePointer<SIMD2<Double>>, count: Int,
        _ states: inout InlineArray<16, StereoState>
    ) {
        guard count > 0 else { return }
        let (first, second) = (bands[index], bands[index + 1])
        let b0 = SIMD4(first.b0, first.b0, second.b0, second.b0)
        let b1 = SIMD4(first.b1, first.b1, second.b1, second.b1)
        let b2 = SIMD4(first.b2, first.b2, second.b2, second.b2)
        let a1 = SIMD4(first.a1, first.a1, second.a1, second.a1)
        let a2 = SIMD4(first.a2, first.a2, second.a2, second.a2)
        var z1 = SIMD4(lowHalf: states[index].z1, highHalf: states[index + 1].z1)
        var z2 = SIMD4(lowHalf: states[index].z2, highHalf: states[index + 1].z2)
        // Step 0: the first band alone, on frame 0.
        var x = SIMD4(lowHalf: signal[0], highHalf: .zero)
        var y = b0 * x + z1
        let firstZ1 = b1 * x - a1 * y + z2
        let firstZ2 = b2 * x - a2 * y
        z1 = SIMD4(lowHalf: firstZ1.lowHalf, highHalf: z1.highHalf)
        z2 = SIMD4(lowHalf: firstZ2.lowHalf, highHalf: z2.highHalf)
        var carry = y.lowHalf
        // Steps 1 ..< count: both bands, the second one frame behind.
        for frame in 1..<max(1, count) {
            x = SIMD4(lowHalf: signal[frame], highHalf: carry)
            y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            signal[frame - 1] = y.highHalf
            carry = y.lowHalf
        }
        // The last step: the second band alone, on the last frame.
        x = SIMD4(lowHalf: .zero, highHalf: carry)
        y = b0 * x + z1
        let lastZ1 = b1 * x - a1 * y + z2
        let lastZ2 = b2 * x - a2 * y
        signal[count - 1] = y.highHalf
        states[index] = StereoState(z1: z1.lowHalf, z2: z2.lowHalf)
        states[index + 1] = StereoState(z1: lastZ1.highHalf, z2: lastZ2.highHalf)
    }
}

/// Triangular (TPDF) dither of ±1 LSB from a fixed seed (xorshift64*), so a capture is the same
/// on every run.
struct TriangularDither: Sendable {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// One dither value for each of two channels. Each is the difference of two uniform
    /// variables of 16 bits (more than enough for ±1 LSB), all four from one 64-bit draw.
    @inline(__always)
    mutating func nextPair() -> SIMD2<Double> {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = state &* 0x2545_F491_4F6C_DD1D
        let first = SIMD2(Double(bits & 0xFFFF), Double((bits >> 16) & 0xFFFF))
        let second = SIMD2(Double((bits >> 32) & 0xFFFF), Double(bits >> 48))
        return (first - second) * (1.0 / 65536)
    }
}

extension SoundChain {
    /// Runs the output thread's sound code once on the calling thread (the control thread,
    /// when the engine is made). The first use of a generic type makes the Swift runtime
    /// instantiate its metadata, which allocates and takes a lock; done here, it never happens
    /// on the output thread (a test counts its allocations: none).
    static func warmUp() {
        let control = SoundControl()
        let band = EQBand(type: .parametric, frequency: 1000, q: 1, gain: -1)
        control.set(SoundSettings(equalizer: Equalizer(isEnabled: true, bands: [band]), volume: 0.5))
        var parameters = SoundParameters()
        let version = control.read(ifNewerThan: .max, into: &parameters)
        _ = control.read(ifNewerThan: version ?? 0, into: &parameters)
        var chain = SoundChain(channels: 2, sampleRate: 44_100, scratch: SoundScratch(frames: 64))
        chain.start(with: parameters)
        let input = [Int16](repeating: 1000, count: 128)
        var output = [Int16](repeating: 0, count: 128)
        for next in [SoundParameters(), parameters] {
            input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    // The slicing the output loop does on its buffers, once.
                    let region = UnsafeBufferPointer(rebasing: source.prefix(64))
                    let processed = UnsafeMutableBufferPointer(rebasing: target[..<64])
                    chain.process(UnsafeBufferPointer(rebasing: region[..<64]), into: processed)
                    _ = UnsafeBufferPointer(rebasing: target[0..<64]).count
                }
            }
            chain.apply(next)
        }
    }
}
