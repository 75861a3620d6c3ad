import ControlProtocol
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// Phrase mode on the state value alone: which engine items play the phrases, where a
/// pipeline starts, and which step is heard.
@Suite struct PhraseStateTests {
    /// Two items queued (60 s each), phrase mode with 2 repeats and gaps of one phrase length,
    /// and three phrases found in the first: 1 - 2 s, 3 - 4.5 s, 6 - 7 s.
    static func state(complete: Bool = true) -> PlayerState {
        var state = PlayerStateTests.queued(2)
        _ = state.setPhraseMode(PhraseMode(isEnabled: true, repeats: 2, gapFactor: 1))
        let phrases = [Phrase(start: 1, end: 2), Phrase(start: 3, end: 4.5), Phrase(start: 6, end: 7)]
        let changes = state.setPhrases(
            StoredPhrases(
                itemID: 1, parameters: PhraseParameters(), list: PhraseList(phrases: phrases, isComplete: complete)))
        #expect(changes == .phrase)
        return state
    }

    @Test(
        "from the start: phrase 1 from its start, then each pass with its gap, twice each, then the rest and the next item"
    )
    func items() throws {
        var state = Self.state()
        #expect(state.phraseStart(atFrame: 0) == 44_100)
        let items = state.engineItems(startingAt: 44_100)
        let (current, upcoming) = try #require(items)
        #expect(
            current.endFrame == 88_200 && current.gapFrames == 44_100
                && current.mark == PhraseStep(phrase: 0, repetition: 0).mark)
        let passes = upcoming.prefix(5).map { [$0.startFrame, $0.endFrame ?? -1, $0.gapFrames] }
        #expect(
            passes == [
                [44_100, 88_200, 44_100], [132_300, 198_450, 66_150], [132_300, 198_450, 66_150],
                [264_600, 308_700, 44_100], [264_600, 308_700, 44_100],
            ])
        #expect(upcoming.count == 7 && upcoming[5].startFrame == 308_700 && upcoming[5].endFrame == nil)
        #expect(upcoming[5].mark == 0 && upcoming[5].gapFrames == 0 && upcoming[6].id == 2)
    }

    @Test(
        "paused in a gap, play goes on with the next repeat from the phrase's start; within a phrase, from where it is")
    func startFromGap() {
        var state = Self.state()
        #expect(state.phraseHeard(mark: PhraseStep(phrase: 1, repetition: 1).mark, inGap: true) == .phrase)
        #expect(state.phraseStep == PhraseStep(phrase: 1, repetition: 1, inGap: true))
        #expect(state.phraseStart(atFrame: 198_450) == 264_600)
        #expect(state.phraseStep == PhraseStep(phrase: 2, repetition: 0))
        #expect(state.phraseStart(atFrame: 270_000) == 270_000)
        #expect(state.phraseStep == PhraseStep(phrase: 2, repetition: 0))
        // The same step heard again is no change: pushed once.
        #expect(state.phraseHeard(mark: PhraseStep(phrase: 2, repetition: 0).mark, inGap: false) == [])
        // Past the last phrase: plain playback.
        #expect(state.phraseStart(atFrame: 400_000) == 400_000 && state.phraseStep == nil)
    }

    @Test("the snapshot carries the phrase playing; another item, or phrase mode off, none")
    func snapshot() {
        var state = Self.state()
        _ = state.phraseHeard(mark: PhraseStep(phrase: 1, repetition: 1).mark, inGap: true)
        let shown = state.snapshot(frame: 198_450, timestamp: 0, rate: 0, now: 0)
        #expect(shown.phrase == CurrentPhrase(number: 1, count: 3, start: 3, end: 4.5, repetition: 1, inGap: true))
        #expect(shown.phraseMode?.repeats == 2)
        _ = state.advance()
        #expect(state.snapshot(frame: 0, timestamp: 0, rate: 0, now: 0).phrase == nil)
        #expect(!state.isPlayingPhrases)
        _ = state.select(0)
        _ = state.setPhraseMode(PhraseMode())
        #expect(state.snapshot(frame: 0, timestamp: 0, rate: 0, now: 0).phraseMode == nil)
    }
}
