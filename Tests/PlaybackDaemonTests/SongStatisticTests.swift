import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The library's plays and skips, read from the hearings as the history records them.
@Suite struct SongStatisticTests {
    let item = QueueItem(
        id: 7, path: "/music/song.flac",
        metadata: TrackMetadata(title: "Song", duration: 200, sampleRate: 44_100, channels: 2))

    func heard(_ seconds: Double, _ ending: HeardItem.Ending, listen: Bool = false) -> PlayerEvent {
        .itemHeard(HeardItem(item: item, began: 1_000, seconds: seconds, ending: ending, isListen: listen))
    }

    @Test("a listen is a play, dated when its hearing began")
    func listenIsAPlay() {
        #expect(
            SongStatistic(.listened(item: item, began: 1_000))
                == SongStatistic(kind: .played, path: "/music/song.flac", time: 1_000))
    }

    @Test("a hearing left for another under 30 s in, never a listen, is a skip; any other end is neither")
    func skips() {
        #expect(SongStatistic(heard(29.9, .skipped))?.kind == .skipped)
        #expect(SongStatistic(heard(30, .skipped)) == nil)
        #expect(SongStatistic(heard(10, .skipped, listen: true)) == nil)
        for ending in [HeardItem.Ending.finished, .stopped, .removed, .replaced] {
            #expect(SongStatistic(heard(5, ending)) == nil, "\(ending)")
        }
        #expect(SongStatistic(.itemAudible(item: item, began: 1_000)) == nil)
    }
}
