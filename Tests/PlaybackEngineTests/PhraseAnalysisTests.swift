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
        let analysis = PhraseAnalysis(parameters: parameters) { path throws(DecoderError) in
            try AudioFileFormat.open(path)
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
}
