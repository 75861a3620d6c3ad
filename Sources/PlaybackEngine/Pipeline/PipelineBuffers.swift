/// The memory one pipeline's threads work in, of its format's sample type, allocated on the
/// event loop when the pipeline starts so that the output thread never allocates.
final class PipelineBuffers<Sample: PCMSample>: @unchecked Sendable {
    /// The decoded audio the ring holds at least: a second of the stream, which `SampleRing`
    /// rounds up to a power of two (1.49 s of 44.1 kHz stereo in 256 KiB of 16-bit samples;
    /// 1.49 s of a 22.05 kHz mono audiobook in 64 KiB). The device's own buffer comes on top.
    /// Every page of the ring is resident once it has wrapped, and a bigger ring decodes no
    /// faster (docs/performance.md), so more would be memory held for nothing.
    static func ringSamples(_ format: AudioFormat) -> Int { format.sampleRate * format.channels }

    let ring: SampleRing<Sample>
    /// Room for the output thread's fade-out.
    let fade: UnsafeMutableBufferPointer<Sample>
    /// The output thread's processed samples.
    let process: UnsafeMutableBufferPointer<Sample>
    /// Decoded samples on their way to the stretcher (empty at rate 1).
    let stretchInput: UnsafeMutableBufferPointer<Sample>

    /// `reserve`: samples the ring keeps behind its read position (`SampleRing`).
    init(format: AudioFormat, reserve: Int, stretches: Bool) {
        ring = SampleRing(capacity: Self.ringSamples(format), reserve: reserve, channels: format.channels)
        stretchInput = .allocate(capacity: stretches ? Pipeline.stretchFrames * format.channels : 0)
        fade = .allocate(capacity: format.sampleRate * Pipeline.fadeMilliseconds / 1000 * format.channels)
        let processFrames = format.sampleRate * Pipeline.processMilliseconds / 1000
        process = .allocate(capacity: max(processFrames * format.channels, fade.count))
    }

    deinit {
        fade.deallocate()
        process.deallocate()
        stretchInput.deallocate()
    }
}
