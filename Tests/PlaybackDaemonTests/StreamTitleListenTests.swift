import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// `scrobble-streams`: a live stream's titles as listens, on the `Hearing` value.
@Suite struct StreamTitleListenTests {
    func stream(_ artist: String?, _ title: String) -> QueueItem {
        QueueItem(
            id: 9, path: "http://radio.example/live",
            metadata: TrackMetadata(title: title, artist: artist, duration: 0, sampleRate: 44_100, channels: 2))
    }

    func listens(_ hearing: inout Hearing) -> [(String, Double)] {
        hearing.take().compactMap {
            if case .listened(let item, let began) = $0 { (item.metadata.title, began) } else { nil }
        }
    }

    @Test(
        "an 'Artist - Title' heard for 30 s is a listen, dated when it was announced; a shorter one, a title without an artist, and the stream itself are none"
    )
    func titlesCount() {
        var hearing = Hearing()
        hearing.countsStreamTitles = true
        hearing.runs(stream("Artist A", "Song A"), from: 0, pipeline: 1)
        hearing.audible(at: 1_000)
        #expect(hearing.current?.listenPosition == 30, "the first title counts 30 s in")
        hearing.retitles(stream("Artist B", "Song B"), upTo: 20, now: 1_020)
        #expect(listens(&hearing).isEmpty, "Song A was heard for 20 s")
        #expect(hearing.current?.listenPosition == 50)
        hearing.listens(upTo: 49.9)
        #expect(listens(&hearing).isEmpty)
        hearing.listens(upTo: 50)
        #expect(listens(&hearing).map(\.0) == ["Song B"])
        hearing.listens(upTo: 80)
        #expect(listens(&hearing).isEmpty, "once a title")
        hearing.retitles(stream(nil, "Station jingle"), upTo: 90, now: 1_090)
        #expect(hearing.current?.secondsToListen == nil, "no artist: not a track")
        hearing.retitles(stream("Artist C", "Song C"), upTo: 95, now: 1_095)
        hearing.ends(stream("Artist C", "Song C"), at: 140, .stopped)
        let events = hearing.take()
        let counted = events.compactMap {
            if case .listened(let item, let began) = $0 { (item.metadata.title, began) } else { nil }
        }
        #expect(counted.map(\.0) == ["Song C"] && counted.first?.1 == 1_095, "45 s of Song C, a listen at the end")
        let ended = events.compactMap { if case .itemHeard(let heard) = $0 { heard } else { nil } }
        #expect(ended.count == 1 && ended[0].isListen == false && ended[0].seconds == 140, "the stream is no listen")
    }

    @Test("without scrobble-streams, no title counts")
    func off() {
        var hearing = Hearing()
        hearing.runs(stream("Artist A", "Song A"), from: 0, pipeline: 1)
        hearing.audible(at: 1_000)
        #expect(hearing.current?.secondsToListen == nil)
        hearing.retitles(stream("Artist B", "Song B"), upTo: 20, now: 1_020)
        hearing.ends(stream("Artist B", "Song B"), at: 300, .stopped)
        #expect(listens(&hearing).isEmpty)
    }
}
