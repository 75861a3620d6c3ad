import PlaybackModel
import Testing

/// The detector's rules on level envelopes made to order: windows of 10 ms, speech at -20 dBFS
/// and silence at -90 dBFS unless a test says otherwise.
@Suite struct PhraseDetectorTests {
    static let speech: Float = 1e-2  // -20 dBFS mean square
    static let quiet: Float = 1e-9  // -90 dBFS

    /// An envelope from (seconds, level) runs.
    static func envelope(_ runs: [(Double, Float)]) -> [Float] {
        runs.flatMap { Array(repeating: $0.1, count: Int(($0.0 * 100).rounded())) }
    }

    static func phrases(_ runs: [(Double, Float)], _ parameters: PhraseParameters = PhraseParameters()) -> [Phrase] {
        let levels = envelope(runs)
        return PhraseDetector(parameters).phrases(
            meanSquares: levels, windows: 0..<levels.count, duration: Double(levels.count) / 100)
    }

    static func rounded(_ phrases: [Phrase]) -> [[Double]] {
        phrases.map { [($0.start * 100).rounded() / 100, ($0.end * 100).rounded() / 100] }
    }

    @Test("a pause shorter than the minimum silence does not cut; a longer one does; each phrase is padded")
    func pauses() {
        let found = Self.phrases([
            (1, Self.quiet), (2, Self.speech), (0.2, Self.quiet), (1, Self.speech), (0.6, Self.quiet), (1, Self.speech),
            (1, Self.quiet),
        ])
        #expect(Self.rounded(found) == [[0.85, 4.35], [4.65, 5.95]])
    }

    @Test(
        "a fragment shorter than the minimum phrase joins the neighbour across the shorter pause; a short sentence long enough stays"
    )
    func fragments() {
        // A 0.2 s breath 0.4 s after a sentence and 1 s before the next joins the first.
        let breath = Self.phrases([
            (1, Self.quiet), (2, Self.speech), (0.4, Self.quiet), (0.2, Self.speech), (1, Self.quiet), (2, Self.speech),
            (1, Self.quiet),
        ])
        #expect(Self.rounded(breath) == [[0.85, 3.75], [4.45, 6.75]])
        // "Thank you." (0.6 s) between long pauses is a phrase of its own.
        let short = Self.phrases([
            (1, Self.quiet), (2, Self.speech), (0.8, Self.quiet), (0.6, Self.speech), (0.8, Self.quiet),
            (2, Self.speech), (1, Self.quiet),
        ])
        #expect(short.count == 3)
    }

    @Test("a phrase longer than the maximum is split at its deepest pause, and again until none is longer")
    func longPhrases() {
        var parameters = PhraseParameters()
        parameters.maximumPhrase = 5
        // 8 s of speech with a dip (too short to be a pause) at 3 s.
        let dip = Self.phrases(
            [(1, Self.quiet), (3, Self.speech), (0.1, Self.speech / 30), (4.9, Self.speech), (1, Self.quiet)],
            parameters)
        #expect(dip.count == 2 && abs(dip[0].end - 4.05) < 0.06 && dip[0].end == dip[1].start, "\(dip)")
        // 30 s without any dip: pieces of at most 5 s, end to end.
        let steady = Self.phrases([(30, Self.speech)], parameters)
        #expect(steady.count >= 6 && steady.allSatisfy { $0.length <= 5 + 1e-9 }, "\(steady)")
        #expect(steady.first?.start == 0 && steady.last?.end == 30)
        #expect(zip(steady, steady.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    @Test("the threshold follows the recording's own level, and a steady noise floor is silence")
    func relativeThreshold() {
        let runs: [(Double, Float)] = [
            (1, Self.quiet), (2, Self.speech), (1, Self.quiet), (2, Self.speech), (1, Self.quiet),
        ]
        let loud = Self.phrases(runs)
        let quiet = Self.phrases(runs.map { ($0.0, $0.1 * 1e-3) })  // 30 dB lower
        #expect(loud == quiet && loud.count == 2)
        let noisy = Self.phrases(runs.map { ($0.0, $0.1 == Self.quiet ? 1e-5 : $0.1) })  // floor at -50 dBFS
        #expect(Self.rounded(noisy) == Self.rounded(loud))
    }

    @Test("silence, dither and a lone click are no phrase; the padding stops at the item's ends and meets halfway")
    func edges() {
        #expect(Self.phrases([(3, 0)]).isEmpty)
        #expect(Self.phrases([(3, 1e-10)]).isEmpty)
        #expect(Self.phrases([(1, Self.quiet), (0.02, Self.speech), (2, Self.quiet)]).isEmpty)
        var parameters = PhraseParameters()
        parameters.padding = 0.2
        let edge = Self.phrases(
            [(0.05, Self.quiet), (1, Self.speech), (0.32, Self.quiet), (1, Self.speech), (0.05, Self.quiet)], parameters
        )
        #expect(Self.rounded(edge) == [[0, 1.21], [1.21, 2.42]])
    }

    @Test(
        "clicks a third of a second apart for ten minutes (all too short): joined, then halved into phrases of at most the maximum, in order"
    )
    func clicks() {
        var runs: [(Double, Float)] = []
        for _ in 0..<1622 { runs += [(0.06, Self.speech), (0.31, Self.quiet)] }
        let found = Self.phrases(runs)
        #expect(found.count >= 30 && found.count <= 64, "\(found.count)")
        #expect(found.allSatisfy { $0.length <= 20 + 0.3 + 1e-9 }, "\(found.map(\.length).max() ?? 0)")
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.end <= $1.start && $0.start < $0.end })
    }
}
