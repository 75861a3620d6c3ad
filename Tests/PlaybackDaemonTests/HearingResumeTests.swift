import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// A pipeline paused in place goes on with its passes numbered on: a resume is the same pass.
@Suite struct HearingResumeTests {
    let item = QueueItem(
        id: 1, path: "/music/song.flac",
        metadata: TrackMetadata(title: "Song", duration: 40, sampleRate: 44_100, channels: 2))

    @Test("resumed in place, the pass under way keeps its segment; a fresh pipeline begins at 0")
    func resumeKeepsThePass() {
        var hearing = Hearing()
        hearing.runs(item, from: 0, pipeline: 1)
        hearing.audible(at: 1_000)
        hearing.passes(to: item, from: 0, pass: Hearing.Pass(pipeline: 1, segment: 1), began: 1_040)
        hearing.stops(at: 6)
        hearing.runs(item, from: 6, pipeline: 2, resumed: true)
        #expect(hearing.current?.pass == Hearing.Pass(pipeline: 2, segment: 1), "the second pass goes on")
        #expect(hearing.current?.began == 1_040 && hearing.current?.seconds == 6)
        hearing.stops(at: 8)
        hearing.runs(item, from: 8, pipeline: 3)
        #expect(hearing.current?.pass == Hearing.Pass(pipeline: 3, segment: 0), "a new pipeline numbers from 0")
    }
}
