#if canImport(Glibc)
    import Glibc
#endif
import PlaybackModel

/// The output thread's processing of 16-bit samples: preamp, the equalizer's biquads, global
/// gain and volume in 64-bit floating point, then TPDF dither back to 16 bits. Transparent
/// settings are a plain copy, bit for bit. A change crossfades from the old chain's output to
/// the new one's over `crossfadeMilliseconds` (the new filters start from the old ones'
/// memory), so it never clicks. Fixed-size storage only: nothing here allocates, locks or logs.
/// One per pipeline, used by its output thread alone.
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

    init(channels: Int, sampleRate: Int) {
        precondition(channels >= 1 && channels <= Self.maximumChannels)
        self.channels = channels
        self.sampleRate = Double(sampleRate)
        fadeFrames = max(1, sampleRate * Self.crossfadeMilliseconds / 1000)
        fadeFrame = fadeFrames
    }

    /// Whether `process` is a plain copy now (transparent settings, no crossfade running).
    var isTransparent: Bool { current.isIdentity && fadeFrame >= fadeFrames }

    /// Takes new settings; the output crossfades to them.
    mutating func apply(_ parameters: SoundParameters) {
        previous = current
        previousStates = states
        current = ChainStage(parameters, sampleRate: sampleRate)
        fadeFrame = 0
    }

    /// Processes `input` (interleaved frames) into `output`, which holds at least as many samples.
    mutating func process(_ input: UnsafeBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<Int16>) {
        if isTransparent {
            _ = output.initialize(from: input)
            return
        }
        let frames = input.count / channels
        for frame in 0..<frames {
            let base = frame * channels
            var x = SIMD2<Double>(repeating: Double(input[base]) / 32768)
            if channels == 2 { x[1] = Double(input[base + 1]) / 32768 }
            var y = current.run(x, &states)
            if fadeFrame < fadeFrames {
                let t = Double(fadeFrame) / Double(fadeFrames)
                y = previous.run(x, &previousStates) * (1 - t) + y * t
                fadeFrame += 1
            }
            for channel in 0..<channels {
                let scaled = y[channel] * 32768 + dither.next()
                output[base + channel] = Int16(max(-32768, min(32767, scaled.rounded())))
            }
        }
    }
}

/// Both channels' memory of one biquad, as one SIMD value.
struct StereoState: Sendable {
    var z1 = SIMD2<Double>(), z2 = SIMD2<Double>()
}

/// The chain for one set of settings at one sample rate: the active bands' coefficients and
/// one overall gain (preamp, automatic preamp, global gain and volume).
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
        gain = pow(10, gainDB / 20) * parameters.volume
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

    @inline(__always)
    func run(_ input: SIMD2<Double>, _ states: inout InlineArray<16, StereoState>) -> SIMD2<Double> {
        guard !isIdentity else { return input }
        var y = input
        for index in 0..<bandCount {
            let c = bands[index]
            let x = y
            y = c.b0 * x + states[index].z1
            states[index].z1 = c.b1 * x - c.a1 * y + states[index].z2
            states[index].z2 = c.b2 * x - c.a2 * y
        }
        return y * gain
    }
}

/// Triangular (TPDF) dither of ±1 LSB from a fixed seed (xorshift64*), so a capture is the same
/// on every run.
struct TriangularDither: Sendable {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    mutating func next() -> Double { uniform() - uniform() }

    @inline(__always)
    private mutating func uniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
    }
}
