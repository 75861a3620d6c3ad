import CDecoderLibraries

/// Turns an item's samples into a Snapcast stream's: 16-bit stereo at the stream's rate.
///
/// 16-bit stereo at the stream's rate passes untouched (bit for bit), and 16-bit mono at it is
/// only doubled into both channels. Anything else (another rate, 24-bit samples, other channel
/// counts) goes through libsoxr at its high quality (`SOXR_HQ`: 20-bit precision, far below
/// the 16-bit noise floor), with libsoxr's default TPDF dither to 16 bits. Items of more than
/// two channels keep their first two, front left and right.
///
/// Buffers are allocated here, for at most `maximumInputFrames` per call; libsoxr sizes its
/// own at its first calls. Output thread only, after `init`.
final class StreamConverter {
    let input: AudioFormat
    let streamRate: Int
    let maximumInputFrames: Int
    /// Nil: the samples pass (or are only doubled into stereo).
    private let resampler: soxr_t?
    /// The input as float stereo frames, for libsoxr.
    private let floats: UnsafeMutableBufferPointer<Float>
    /// Converted stereo frames.
    let output: UnsafeMutableBufferPointer<Int16>

    init(input: AudioFormat, streamRate: Int, maximumInputFrames: Int) throws(SinkError) {
        self.input = input
        self.streamRate = streamRate
        self.maximumInputFrames = maximumInputFrames
        let passes = input.sampleRate == streamRate && input.sampleFormat == .s16 && input.channels <= 2
        if passes {
            resampler = nil
            floats = .allocate(capacity: 0)
            output = .allocate(capacity: input.channels == 1 ? maximumInputFrames * 2 : 0)
            return
        }
        guard playbackd_soxr_load() != 0 else {
            throw SinkError(
                function: "dlopen", code: -ENOENT,
                reason: "libsoxr (libsoxr0) cannot be loaded: items at \(input.sampleRate) Hz cannot be resampled",
                isUnsupportedFormat: true)
        }
        var io = playbackd_soxr_io_spec(SOXR_FLOAT32_I, SOXR_INT16_I)
        var quality = playbackd_soxr_quality_spec(UInt(SOXR_HQ), 0)
        var error: soxr_error_t?
        guard
            let made = playbackd_soxr_create(
                Double(input.sampleRate), Double(streamRate), 2, &error, &io, &quality, nil), error == nil
        else {
            throw SinkError(
                function: "soxr_create", code: -EINVAL,
                reason: error.map { String(cString: $0) } ?? "cannot make a resampler", isUnsupportedFormat: true)
        }
        resampler = made
        floats = .allocate(capacity: maximumInputFrames * 2)
        let outputFrames = maximumInputFrames * streamRate / input.sampleRate + 256
        output = .allocate(capacity: outputFrames * 2)
    }

    deinit {
        if let resampler { playbackd_soxr_delete(resampler) }
        floats.deallocate()
        output.deallocate()
    }

    /// Whether the input's bytes are the stream's as they are.
    var passesUntouched: Bool { resampler == nil && input.channels == 2 }

    /// Converts `frames` frames of `samples` (at most `maximumInputFrames`) into `output`;
    /// returns the stereo frames made. Not for `passesUntouched`.
    func convert(_ samples: UnsafeRawBufferPointer, frames: Int) -> Int {
        let channels = input.channels
        guard let resampler else {
            // 16-bit mono at the stream's rate: each sample to both channels.
            let mono = samples.assumingMemoryBound(to: Int16.self)
            for frame in 0..<frames {
                output[frame * 2] = mono[frame]
                output[frame * 2 + 1] = mono[frame]
            }
            return frames
        }
        switch input.sampleFormat {
        case .s16:
            let source = samples.assumingMemoryBound(to: Int16.self)
            stereoFloats(frames: frames, channels: channels) { Float(source[$0]) * (1 / 32_768) }
        case .s32:
            let source = samples.assumingMemoryBound(to: Int32.self)
            stereoFloats(frames: frames, channels: channels) { Float(source[$0]) * (1 / 2_147_483_648) }
        }
        var used = 0
        var done = 0
        playbackd_soxr_process(
            resampler, floats.baseAddress, frames, &used, output.baseAddress, output.count / 2, &done)
        return done
    }

    /// What libsoxr still holds (its filter's delay), at the end of the input; returns the
    /// stereo frames made into `output`.
    func flush() -> Int {
        guard let resampler else { return 0 }
        var done = 0
        playbackd_soxr_process(resampler, nil, 0, nil, output.baseAddress, output.count / 2, &done)
        return done
    }

    /// Forgets what libsoxr holds: the next input starts a new signal.
    func reset() {
        if let resampler { playbackd_soxr_clear(resampler) }
    }

    /// Frames libsoxr holds back, at the input's rate.
    var heldFrames: Int {
        guard let resampler else { return 0 }
        return Int(playbackd_soxr_delay(resampler) * Double(input.sampleRate) / Double(streamRate))
    }

    private func stereoFloats(frames: Int, channels: Int, _ sample: (Int) -> Float) {
        for frame in 0..<frames {
            let left = sample(frame * channels)
            floats[frame * 2] = left
            floats[frame * 2 + 1] = channels == 1 ? left : sample(frame * channels + 1)
        }
    }
}
