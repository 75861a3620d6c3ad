import CSonic

/// Changes the speed of interleaved audio while keeping its pitch: Sonic's pitch-synchronous
/// overlap-add (libsonic, the stretcher of ExoPlayer and AntennaPod; docs/sound.md says why
/// this one). Sonic works in 16 bits (its float interface converts to them), so 32-bit samples
/// are stretched at their top 16 bits and come back widened: a changed rate re-synthesizes the
/// sound, and 16 bits is Sonic's resolution.
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
    func write<Sample: PCMSample>(_ samples: UnsafeMutableBufferPointer<Sample>) -> Bool {
        let frames = Int32(samples.count / channels)
        guard Sample.bitWidth != 16 else {
            return samples.withMemoryRebound(to: Int16.self) {
                sonicWriteShortToStream(stream, $0.baseAddress, frames) != 0
            }
        }
        // In place: each sample's top half, packed at the start of the same memory.
        let raw = UnsafeMutableRawPointer(samples.baseAddress!)
        for index in 0..<samples.count {
            let top = Int16(truncatingIfNeeded: samples[index] >> (Sample.bitWidth - 16))
            raw.storeBytes(of: top, toByteOffset: index * 2, as: Int16.self)
        }
        return sonicWriteShortToStream(stream, raw.assumingMemoryBound(to: Int16.self), frames) != 0
    }

    /// Samples ready to be read.
    var availableSamples: Int { Int(sonicSamplesAvailable(stream)) * channels }

    /// Moves up to `buffer.count` samples (whole frames) of output into `buffer`; returns how many.
    func read<Sample: PCMSample>(into buffer: UnsafeMutableBufferPointer<Sample>) -> Int {
        let frames = buffer.count / channels
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        guard Sample.bitWidth != 16 else {
            return buffer.withMemoryRebound(to: Int16.self) {
                Int(sonicReadShortFromStream(stream, $0.baseAddress, Int32(frames))) * channels
            }
        }
        // Into the first half of the memory, then widened from the last sample back, so that
        // no 16-bit sample is overwritten before it is read.
        let raw = UnsafeMutableRawPointer(base)
        let count =
            Int(sonicReadShortFromStream(stream, raw.assumingMemoryBound(to: Int16.self), Int32(frames))) * channels
        for index in stride(from: count - 1, through: 0, by: -1) {
            let narrow = raw.load(fromByteOffset: index * 2, as: Int16.self)
            raw.storeBytes(
                of: Sample(truncatingIfNeeded: Int32(narrow) << 16), toByteOffset: index * 4, as: Sample.self)
        }
        return count
    }

    /// Makes everything written so far available as output (the end of the stream).
    func flush() { sonicFlushStream(stream) }

    /// The first output sample of the media frame `frames` frames into the stream.
    func outputSample(forInputFrames frames: Int) -> Int {
        Int((Double(frames) / rate).rounded()) * channels
    }
}
