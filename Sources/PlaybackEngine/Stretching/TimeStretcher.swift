import CSonic

/// Changes the speed of interleaved 16-bit audio while keeping its pitch: Sonic's
/// pitch-synchronous overlap-add (libsonic, the stretcher of ExoPlayer and AntennaPod;
/// docs/sound.md says why this one).
///
/// Used by the decoder thread only, which is not real-time: Sonic grows its buffers as it
/// needs to. Items flow through one stream without a flush between them, so a boundary stays
/// where the media time puts it; only the end of what a pipeline plays is flushed.
final class TimeStretcher {
    /// Media seconds per second of output.
    let rate: Double
    let channels: Int
    private let stream: sonicStream

    /// Nil when Sonic cannot allocate its stream.
    init?(rate: Double, sampleRate: Int, channels: Int) {
        guard let stream = sonicCreateStream(Int32(sampleRate), Int32(channels)) else { return nil }
        self.rate = rate
        self.channels = channels
        self.stream = stream
        sonicSetSpeed(stream, Float(rate))
    }

    deinit { sonicDestroyStream(stream) }

    /// Takes `samples` (whole frames). False when Sonic could not grow its buffer.
    func write(_ samples: UnsafeMutableBufferPointer<Int16>) -> Bool {
        sonicWriteShortToStream(stream, samples.baseAddress, Int32(samples.count / channels)) != 0
    }

    /// Samples ready to be read.
    var availableSamples: Int { Int(sonicSamplesAvailable(stream)) * channels }

    /// Moves up to `buffer.count` samples (whole frames) of output into `buffer`; returns how many.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) -> Int {
        let frames = buffer.count / channels
        guard frames > 0 else { return 0 }
        return Int(sonicReadShortFromStream(stream, buffer.baseAddress, Int32(frames))) * channels
    }

    /// Makes everything written so far available as output (the end of the stream).
    func flush() { sonicFlushStream(stream) }

    /// The first output sample of the media frame `frames` frames into the stream.
    func outputSample(forInputFrames frames: Int) -> Int {
        Int((Double(frames) / rate).rounded()) * channels
    }
}
