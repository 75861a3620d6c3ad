import ControlProtocol
import PlaybackModel
import Testing

@testable import PlaybackDaemon

@Suite("the now-playing snapshot serialized once per distinct snapshot")
struct SnapshotEncodingTests {
    private static func snapshot(elapsed: Double, title: String = "T") -> NowPlaying {
        let item = QueueItem(
            id: 7, path: "/music/a \"b\".mp3",
            metadata: TrackMetadata(title: title, artist: "Ä", duration: 2.5, sampleRate: 44100, channels: 2))
        return NowPlaying(
            state: .playing, item: item, elapsed: elapsed, rate: 1, timestamp: 1_795_520_581.25, queueIndex: 0,
            queueCount: 1)
    }

    @Test("a reply reads back as the snapshot, the same bytes as serialized afresh; a changed snapshot is new text")
    func repliesFollowTheSnapshot() throws {
        let snapshots = SnapshotEncoding()
        var lines: [String] = []
        for snapshot in [
            Self.snapshot(elapsed: 1.5), Self.snapshot(elapsed: 1.5), Self.snapshot(elapsed: 2),
            Self.snapshot(elapsed: 2, title: "U"),
        ] {
            var cached = Response(.success(.nowPlaying(snapshot)), snapshots: snapshots)
            cached.id = .number(9)
            let afresh = Response(id: .number(9), status: .success, fields: [("nowPlaying", snapshot.json)])
            #expect(cached.lineBytes == afresh.lineBytes)
            let read = try JSONParser.parse(cached.lineBytes.dropLast())
            #expect(try NowPlaying(json: read["nowPlaying"] ?? .null) == snapshot)
            lines.append(String(decoding: cached.lineBytes, as: UTF8.self))
        }
        #expect(lines[0] == lines[1] && lines[1] != lines[2] && lines[2] != lines[3])
    }

    @Test("paused, a later view reuses the text (its position is the same at any time); playing, it does not")
    func pausedViewsShareTheText() {
        let snapshots = SnapshotEncoding()
        var paused = Self.snapshot(elapsed: 4)
        paused.rate = 0
        var later = paused
        later.timestamp += 10
        #expect(snapshots.json(paused) == snapshots.json(later))
        var playing = Self.snapshot(elapsed: 4)
        let first = snapshots.json(playing)
        playing.timestamp += 10
        #expect(snapshots.json(playing) != first, "at rate 1 the timestamp says where the position is")
        later.elapsed = 5
        #expect(snapshots.json(later) != snapshots.json(paused), "another position is new text")
    }

    @Test("a pushed line carries the same text as the reply")
    func pushesShareTheText() {
        let snapshots = SnapshotEncoding()
        let snapshot = Self.snapshot(elapsed: 3)
        let event = Event(changes: .position, nowPlaying: snapshot)
        #expect(event.lineBytes(nowPlaying: snapshots.json(snapshot)) == event.lineBytes)
    }
}
