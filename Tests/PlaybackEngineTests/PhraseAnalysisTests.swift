import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

/// Phrase analysis of real speech (espeak-ng, `Scripts/lib/make-speech.sh`): the phrases are
/// the sentences, each bound within 50 ms of the sentence's true one plus the padding, quiet,
/// loud and over noise alike; and of signals that are not speech.
@Suite struct PhraseAnalysisTests {
    /// Each sentence's true start and end, seconds.
    static func truth() throws -> [(Double, Double)] {
        try String(contentsOfFile: Fixtures.path("speech.truth"), encoding: .utf8).split(separator: "\n").map {
            let fields = $0.split(separator: " ").map { Double($0)! }
            return (fields[0], fields[1])
        }
    }

    static func analyse(_ path: String, _ parameters: PhraseParameters = PhraseParameters(), from start: Int = 0)
        throws -> [Phrase]
    {
        let analysis = PhraseAnalysis(parameters: parameters) { request throws(DecoderError) in
            try AudioFileFormat.open(request)
        }
        return try #require(try analysis.run(path: path, startFrame: start, isCancelled: { false }, partial: { _ in }))
    }

    @Test(
        "the sentences, each bound within 50 ms, the last with its trailing padding",
        arguments: ["speech-loud.flac", "speech-quiet.flac", "speech-noisy.flac"])
    func sentences(file: String) throws {
        let truth = try Self.truth()
        let padding = PhraseParameters().padding
        let phrases = try Self.analyse(Fixtures.path(file))
        try #require(phrases.count == truth.count, "\(phrases)")
        for (phrase, sentence) in zip(phrases, truth) {
            #expect(abs(phrase.start + padding - sentence.0) <= 0.05, "\(file): \(phrase) vs \(sentence)")
            #expect(abs(phrase.end - padding - sentence.1) <= 0.05, "\(file): \(phrase) vs \(sentence)")
        }
    }

    @Test(
        "measured from where playback is first (5 s in), then from the start: the same phrases; partial reports come first and hold only whole phrases"
    )
    func fromThePositionFirst() throws {
        let path = Fixtures.path("speech-loud.flac")
        let whole = try Self.analyse(path)
        let fromMiddle = try Self.analyse(path, from: 5 * 44_100)
        #expect(fromMiddle == whole)
        // The first report, after 2048 windows (20.48 s): the phrases before it, as in the end.
        var parameters = PhraseParameters()
        parameters.maximumPhrase = 5
        var reports: [[Phrase]] = []
        let analysis = PhraseAnalysis(parameters: parameters) { request throws(DecoderError) in
            try AudioFileFormat.open(request)
        }
        let final = try #require(
            try analysis.run(
                path: Fixtures.path("phrase-noise.flac"), startFrame: 0, isCancelled: { false },
                partial: { reports.append($0) }))
        let first = try #require(reports.first)
        #expect(!first.isEmpty && first.last!.end <= 20.48 && first == Array(final.prefix(first.count)), "\(reports)")
        #expect(final.count >= 9 && final.last?.end == 45)
        // Cancelled, it ends without a result.
        #expect(try analysis.run(path: path, startFrame: 0, isCancelled: { true }, partial: { _ in }) == nil)
    }
}
