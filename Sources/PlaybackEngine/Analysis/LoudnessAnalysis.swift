import PlaybackModel

/// A file's loudness, decoded whole: the meter (kept for its album's loudness), how many
/// frames it measured, and what ended decoding early, if anything.
public struct MeasuredFile {
    public let meter: LoudnessMeter
    public let frames: Int
    /// A corrupt or truncated file is measured as far as it decodes: the error that stopped it.
    public let stoppedBy: DecoderError?

    public var loudness: Loudness { meter.loudness }
}

/// Measures files' loudness (`LoudnessMeter`): decodes each from its start to its end, at its
/// own rate and channel count, 16-bit sources as 16-bit samples and deeper ones as 32-bit.
public struct LoudnessAnalysis: Sendable {
    let open: AudioDecoderFactory
    /// Whether the peak is the true peak (`LoudnessMeter.truePeak`).
    let truePeak: Bool
    /// Frames decoded at a time.
    static let blockFrames = 4096

    public init(truePeak: Bool = false, open: @escaping AudioDecoderFactory) {
        self.truePeak = truePeak
        self.open = open
    }

    /// The loudness of `path`; nil when `isCancelled` said so (asked between blocks). Throws
    /// when the file cannot be opened, has no length (a live stream, which is not measured),
    /// or fails before its first frame.
    public func measure(path: String, isCancelled: () -> Bool) throws(LoudnessError) -> MeasuredFile? {
        let decoder: any AudioDecoder
        do { decoder = try open(DecoderRequest(path: path)) } catch { throw .decoding(error) }
        guard decoder.frameCount != nil else { throw .decoding(.unsupported("a live stream is not measured")) }
        let format = decoder.format
        let meter = try LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate, truePeak: truePeak)
        let outcome: (frames: Int, stoppedBy: DecoderError?)?
        switch format.sampleFormat {
        case .s16: outcome = Self.feed(decoder, as: Int16.self, to: meter, isCancelled: isCancelled)
        case .s32: outcome = Self.feed(decoder, as: Int32.self, to: meter, isCancelled: isCancelled)
        }
        guard let outcome else { return nil }
        if outcome.frames == 0, let error = outcome.stoppedBy { throw .decoding(error) }
        return MeasuredFile(meter: meter, frames: outcome.frames, stoppedBy: outcome.stoppedBy)
    }

    /// `measure` as a value: the file measured, or why it cannot be; nil when cancelled.
    public func outcome(path: String, isCancelled: () -> Bool) -> Result<MeasuredFile, LoudnessError>? {
        do {
            guard let file = try measure(path: path, isCancelled: isCancelled) else { return nil }
            return .success(file)
        } catch {
            return .failure(error)
        }
    }

    /// Decodes `decoder` to its end (or its first error) into `meter`: the frames measured and
    /// the error; nil when cancelled.
    private static func feed<Sample: PCMSample>(
        _ decoder: any AudioDecoder, as _: Sample.Type, to meter: LoudnessMeter, isCancelled: () -> Bool
    ) -> (frames: Int, stoppedBy: DecoderError?)? {
        let channels = meter.channels
        var buffer = [Sample](repeating: 0, count: blockFrames * channels)
        var frames = 0
        // Samples decoded but not yet a whole frame stay at the buffer's start.
        var carried = 0
        while true {
            if isCancelled() { return nil }
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBufferPointer { all throws(DecoderError) in
                    try Sample.read(from: decoder, into: UnsafeMutableBufferPointer(rebasing: all[carried...]))
                }
            } catch {
                return (frames, error)
            }
            if count == 0 { return (frames, nil) }
            let whole = (carried + count) / channels * channels
            buffer.withUnsafeBufferPointer { meter.add(UnsafeBufferPointer(rebasing: $0[..<whole])) }
            frames += whole / channels
            carried = carried + count - whole
            if carried > 0 {
                buffer.withUnsafeMutableBufferPointer { all in
                    for index in 0..<carried { all[index] = all[whole + index] }
                }
            }
        }
    }
}

extension LoudnessMeter {
    /// Adds whole frames of the engine's samples of either width.
    fileprivate func add<Sample: PCMSample>(_ samples: UnsafeBufferPointer<Sample>) {
        switch Sample.sampleFormat {
        case .s16: samples.withMemoryRebound(to: Int16.self) { add($0) }
        case .s32: samples.withMemoryRebound(to: Int32.self) { add($0) }
        }
    }
}
