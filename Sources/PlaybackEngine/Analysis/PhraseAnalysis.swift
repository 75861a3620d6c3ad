import PlaybackModel

/// Finds the phrases of an item: decodes it, measures its level envelope (`LevelEnvelope`)
/// and cuts it (`PhraseDetector`). It decodes from `startFrame` (where playback is about to
/// play) to the end first, reporting what it has found there as it goes, then from the
/// start up to `startFrame`. Phrase bounds fall on whole frames.
public struct PhraseAnalysis {
    public let parameters: PhraseParameters
    let open: AudioDecoderFactory

    public init(parameters: PhraseParameters, open: @escaping AudioDecoderFactory) {
        self.parameters = parameters
        self.open = open
    }

    /// Windows measured before the first partial report (about 20 s); each later report waits
    /// for twice as many, so reporting costs little against decoding.
    static let firstReportWindows = 2048

    /// The phrases of `path`, or nil when `isCancelled` said so. `partial` receives the
    /// phrases found so far in the part measured first (never the last one of it, which may
    /// go on past what was measured).
    public func run(
        path: String, startFrame: Int, isCancelled: () -> Bool, partial: ([Phrase]) -> Void
    ) throws(DecoderError) -> [Phrase]? {
        var decoder = try open(DecoderRequest(path: path))
        guard let frameCount = decoder.frameCount, frameCount > 0 else {
            throw .unsupported("an item without a known length (a live stream) has no phrases")
        }
        let rate = decoder.format.sampleRate
        var envelope = LevelEnvelope(
            frameCount: frameCount, sampleRate: rate, windowSeconds: PhraseParameters.windowSeconds)
        let detector = PhraseDetector(parameters, windowSeconds: envelope.windowSeconds)
        let duration = FrameTime.seconds(frameCount, rate: rate)
        let total = envelope.meanSquares.count
        let first = min(envelope.window(at: max(0, startFrame)), total - 1)
        var nextReport = first + Self.firstReportWindows
        let reached = try envelope.measure(
            decoder, windows: first..<total, progressEvery: 512, isCancelled: isCancelled
        ) {
            window, meanSquares in
            guard window >= nextReport else { return }
            nextReport = first + (window - first) * 2
            // Neither the last phrase nor one begun before the first window is known whole.
            let found = detector.phrases(meanSquares: meanSquares, windows: first..<window, duration: duration)
                .dropLast().drop { first > 0 && $0.start < Double(first) * detector.window }
            partial(found.map { snapped($0, rate: rate) })
        }
        if isCancelled() { return nil }
        var measured = first..<reached
        if first > 0 {
            decoder = try open(DecoderRequest(path: path))
            _ = try envelope.measure(decoder, windows: 0..<first, isCancelled: isCancelled) { _, _ in }
            if isCancelled() { return nil }
            measured = 0..<reached
        }
        return detector.phrases(meanSquares: envelope.meanSquares, windows: measured, duration: duration).map {
            snapped($0, rate: rate)
        }
    }

    /// `phrase` with both bounds on whole frames.
    private func snapped(_ phrase: Phrase, rate: Int) -> Phrase {
        let onFrame = { (seconds: Double) in FrameTime.seconds(FrameTime.frames(seconds, rate: rate), rate: rate) }
        return Phrase(start: onFrame(phrase.start), end: onFrame(phrase.end))
    }
}
