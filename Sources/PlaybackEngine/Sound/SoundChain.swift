import CSoundKernel
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The output thread's processing of 16 or 32-bit samples: preamp, the equalizer's biquads,
/// global gain and volume in 64-bit floating point, then TPDF dither back to 16 bits (to 24 at
/// the top of 32-bit samples). Transparent
/// settings are a plain copy, bit for bit. A change crossfades from the old chain's output to
/// the new one's over `crossfadeMilliseconds` (the new filters start from the old ones'
/// memory), so it never clicks. It works a block at a time, in scratch space allocated with
/// the pipeline; the inner loops are `CSoundKernel`'s (vector code chosen for the processor).
/// Nothing here allocates, locks or logs. One per pipeline, used by its output thread alone.
///
/// Mono and stereo take the whole chain. More channels (5.1 and the like) take the gains and
/// the volume only, the equalizer being made for two: their samples are processed as one mono
/// signal (the same gain on every channel, so the channels need not be told apart).
struct SoundChain {
    static let crossfadeMilliseconds = 5

    let channels: Int
    /// The channels of the signal the kernels see: the item's for mono and stereo, else 1 (its
    /// samples one after another).
    private let signalChannels: Int
    let sampleRate: Double
    private var current = ChainStage.identity
    private var previous = ChainStage.identity
    private var states = InlineArray<16, StereoState>(repeating: StereoState())
    private var previousStates = InlineArray<16, StereoState>(repeating: StereoState())
    private var fadeFrame = 0
    private let fadeFrames: Int
    /// The TPDF dither's noise, from a fixed seed so that a capture is the same on every run.
    private var dither = playbackd_dither_seeded(Self.ditherSeed)
    private static let ditherSeed: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let scratch: SoundScratch
    /// The sleep timer's fade (`SoundParameters.fadeStart`, `fadeEnd`: ring samples).
    private var fadeOutStart = Int.max
    private var fadeOutEnd = Int.max
    /// The ring sample `process` is given next (set by the output loop before each call).
    var position = 0

    /// `scratch` holds at least as many frames as one `process` call is given.
    init(channels: Int, sampleRate: Int, scratch: SoundScratch) {
        precondition(channels >= 1)
        self.channels = channels
        signalChannels = channels <= 2 ? channels : 1
        self.sampleRate = Double(sampleRate)
        self.scratch = scratch
        fadeFrames = max(1, sampleRate * Self.crossfadeMilliseconds / 1000) * channels / signalChannels
        fadeFrame = fadeFrames
    }

    /// Whether `process` is a plain copy for the next `samples` from `position` (transparent
    /// settings, no crossfade running, the sleep fade not begun).
    func isTransparent(forSamples samples: Int) -> Bool {
        current.isIdentity && fadeFrame >= fadeFrames && position + samples <= fadeOutStart
    }

    /// The settings a pipeline starts with, at once.
    mutating func start(with parameters: SoundParameters) {
        current = stage(parameters)
        fadeFrame = fadeFrames
        takeFadeOut(parameters)
    }

    /// Starts again as a new chain would, with `parameters` at once: the filters from silence,
    /// the dither from its seed. For audio that follows a cut (a pause in place), in place:
    /// the output thread neither copies nor destroys a chain.
    mutating func restart(with parameters: SoundParameters) {
        for index in states.indices {
            states[index] = StereoState()
            previousStates[index] = StereoState()
        }
        previous = .identity
        dither = playbackd_dither_seeded(Self.ditherSeed)
        start(with: parameters)
    }

    /// Takes the sleep fade from `parameters`. One that should have begun before `position`
    /// (the samples before it are processed: written, on a device that cannot take them back)
    /// begins there instead, ending when it was to end but lasting at least the crossfade, so
    /// the level never steps.
    private mutating func takeFadeOut(_ parameters: SoundParameters) {
        guard parameters.fadeStart != Int.max else { return (fadeOutStart, fadeOutEnd) = (Int.max, Int.max) }
        fadeOutStart = max(parameters.fadeStart, position)
        fadeOutEnd = max(parameters.fadeEnd, fadeOutStart + fadeFrames * signalChannels)
    }

    /// Takes new settings; the output crossfades to them (unless both are transparent).
    mutating func apply(_ parameters: SoundParameters) {
        takeFadeOut(parameters)
        previous = current
        previousStates = states
        current = stage(parameters)
        fadeFrame = previous.isIdentity && current.isIdentity ? fadeFrames : 0
    }

    /// `parameters` for this chain's channels: without the equalizer beyond stereo.
    private func stage(_ parameters: SoundParameters) -> ChainStage {
        var parameters = parameters
        if signalChannels != channels { parameters.isEnabled = false }
        return ChainStage(parameters, sampleRate: sampleRate)
    }

    /// Processes `input` (interleaved frames) into `output`, which holds at least as many
    /// samples, the scratch's capacity at a time.
    mutating func process<Sample: PCMSample>(
        _ input: UnsafeBufferPointer<Sample>, into output: UnsafeMutableBufferPointer<Sample>
    ) {
        guard let source = input.baseAddress, let target = output.baseAddress else { return }
        let total = input.count / signalChannels
        var done = 0
        while done < total {
            let frames = min(total - done, scratch.frames)
            let offset = done * signalChannels
            if isTransparent(forSamples: frames * signalChannels) {
                target.advanced(by: offset).update(from: source.advanced(by: offset), count: frames * signalChannels)
            } else {
                processBlock(source.advanced(by: offset), frames: frames, into: target.advanced(by: offset))
            }
            done += frames
            position += frames * signalChannels
        }
    }

    private mutating func processBlock<Sample: PCMSample>(
        _ input: UnsafePointer<Sample>, frames: Int, into output: UnsafeMutablePointer<Sample>
    ) {
        let signal = scratch.signal
        signal.withMemoryRebound(to: Double.self, capacity: frames * 2) { samples in
            Sample.widen(input, frames: frames, channels: signalChannels, into: samples)
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
        if position + frames * signalChannels > fadeOutStart { fadeOutEnvelope(signal, frames: frames) }
        signal.withMemoryRebound(to: Double.self, capacity: frames * 2) { samples in
            Sample.narrow(samples, frames: frames, channels: signalChannels, dither: &dither, into: output)
        }
    }
}

extension SoundChain {
    /// The sleep timer's fade over `frames` of `signal` starting at `position`: the gain falls
    /// from 1 at `fadeOutStart` to 0 at `fadeOutEnd` (the square of a straight line, so the
    /// level falls evenly in loudness rather than lingering and then dropping), and stays 0
    /// after it. A continuous gain, so it cannot click.
    private func fadeOutEnvelope(_ signal: UnsafeMutablePointer<SIMD2<Double>>, frames: Int) {
        let length = Double(max(1, fadeOutEnd - fadeOutStart))
        for frame in 0..<frames {
            let sample = position + frame * signalChannels
            guard sample > fadeOutStart else { continue }
            let left = min(1, max(0, Double(fadeOutEnd - sample) / length))
            signal[frame] *= left * left
        }
    }
}

/// Scratch space for one pipeline's `SoundChain`, allocated with the pipeline (on the event
/// loop) so that the output thread never allocates.
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

/// Both channels' memory of one biquad, as one SIMD value (the layout of the kernel's
/// `playbackd_biquad_state`).
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

    /// Runs `count` frames of `signal` through every band, then the gain; in place (the
    /// kernel's wavefront: `playbackd_biquad_cascade`).
    func run(_ signal: UnsafeMutablePointer<SIMD2<Double>>, count: Int, _ states: inout InlineArray<16, StereoState>) {
        guard !isIdentity else { return }
        var memory = states.mutableSpan
        // The element types share the kernel's layouts (five doubles; four doubles).
        bands.span.withUnsafeBytes { coefficients in
            memory.withUnsafeMutableBytes { state in
                signal.withMemoryRebound(to: Double.self, capacity: count * 2) { samples in
                    playbackd_biquad_cascade(
                        samples, count, coefficients.assumingMemoryBound(to: playbackd_biquad.self).baseAddress,
                        state.assumingMemoryBound(to: playbackd_biquad_state.self).baseAddress, bandCount, gain)
                }
            }
        }
    }
}

extension SoundChain {
    /// Runs the output thread's sound code once on the calling thread (the event loop,
    /// when the engine is made). The first use of a generic type makes the Swift runtime
    /// instantiate its metadata, which allocates and takes a lock; done here, it never happens
    /// on the output thread (a test counts its allocations: none).
    static func warmUp() {
        playbackd_sound_kernel_select(playbackd_sound_kernel_best())
        let control = SoundControl()
        let band = EQBand(type: .parametric, frequency: 1000, q: 1, gain: -1)
        control.set(SoundSettings(equalizer: Equalizer(isEnabled: true, bands: [band]), volume: 0.5))
        var parameters = SoundParameters()
        let version = control.read(ifNewerThan: .max, into: &parameters)
        _ = control.read(ifNewerThan: version ?? 0, into: &parameters)
        warmUp(Int16.self, parameters)
        warmUp(Int32.self, parameters)
    }

    private static func warmUp<Sample: PCMSample>(_: Sample.Type, _ parameters: SoundParameters) {
        var chain = SoundChain(channels: 2, sampleRate: 44_100, scratch: SoundScratch(frames: 64))
        chain.start(with: parameters)
        let input = [Sample](repeating: 1000, count: 128)
        var output = [Sample](repeating: 0, count: 128)
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
