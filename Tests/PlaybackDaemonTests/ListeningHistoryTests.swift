import Foundation
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The listening history's file: a hearing's reports make one row, a listen stays one, pages
/// come newest first within a range.
@Suite struct ListeningHistoryTests {
    let directory = NSTemporaryDirectory() + "playbackd-history-\(UUID().uuidString)"

    func song(_ id: UInt64, artists: [String] = ["Sigur Rós", "Jónsi"]) -> QueueItem {
        var metadata = TrackMetadata(
            title: "Track \(id)", artist: artists.first, album: "Ágætis byrjun", duration: 300, sampleRate: 44_100,
            channels: 2)
        metadata.otherArtists = Array(artists.dropFirst())
        metadata.trackNumber = Int(id)
        metadata.musicBrainzTrackID = "b1a9c0e9-d987-4042-ae91-78d6a3267d6\(id)"
        metadata.isrc = "GBAYE060149\(id)"
        return QueueItem(id: id, path: directory + "/\(id).flac", metadata: metadata)
    }

    func database() throws -> HistoryDatabase {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try HistoryDatabase(path: directory + "/history.sqlite")
    }

    @Test("a listen as it counts and its end are one row; a hearing that never counted is recorded too")
    func oneRowAHearing() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let history = try database()
        try history.record([.listened(item: song(1), began: 100)])
        var page = try history.page(offset: 0, limit: 10, since: nil, until: nil)
        #expect(page.total == 1 && page.listens.first?.isListen == true && page.listens.first?.seconds == nil)
        try history.record([
            .itemHeard(HeardItem(item: song(1), began: 100, seconds: 170, ending: .skipped, isListen: true)),
            .itemHeard(HeardItem(item: song(2), began: 280, seconds: 12, ending: .stopped)),
        ])
        page = try history.page(offset: 0, limit: 10, since: nil, until: nil)
        #expect(page.total == 2)
        #expect(page.listens.map(\.listenedAt) == [280, 100], "newest first")
        let first = page.listens[1]
        #expect(first.isListen && first.seconds == 170 && first.ending == "skipped")
        #expect(first.artists == ["Sigur Rós", "Jónsi"] && first.album == "Ágætis byrjun" && first.trackNumber == 1)
        #expect(first.path == directory + "/1.flac" && first.duration == 300)
        #expect(
            first.identifiers == ["musicBrainzTrackID": "b1a9c0e9-d987-4042-ae91-78d6a3267d61", "isrc": "GBAYE0601491"])
        #expect(!page.listens[0].isListen && page.listens[0].ending == "stopped")
    }

    @Test("since and until bound when a hearing began; offset and limit page it; the total is the range's")
    func ranges() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let history = try database()
        try history.record(
            (1...9).map { .itemHeard(HeardItem(item: song($0), began: Double($0) * 100, seconds: 1, ending: .skipped)) }
        )
        let page = try history.page(offset: 1, limit: 2, since: 300, until: 800)
        #expect(page.total == 5 && page.listens.map(\.listenedAt) == [600, 500])
        #expect(try history.page(offset: 0, limit: 10, since: 900, until: nil).listens.map(\.listenedAt) == [900])
    }

    @Test("what was recorded is there for the next connection")
    func durable() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let history = try database()
            try history.record([.listened(item: song(3), began: 42)])
        }
        let reopened = try HistoryDatabase(path: directory + "/history.sqlite")
        #expect(try reopened.page(offset: 0, limit: 1, since: nil, until: nil).listens.map(\.isListen) == [true])
    }

    @Test(
        "a file keyed without titles (the first version) is carried over, ids kept; two titles of a stream that began together are two rows"
    )
    func carriedOver() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: directory + "/history.sqlite")
            try old.execute(
                """
                CREATE TABLE hearings (id INTEGER PRIMARY KEY, listenedAt REAL NOT NULL, path TEXT NOT NULL,
                    title TEXT, artists TEXT NOT NULL, album TEXT, albumArtist TEXT, trackNumber INTEGER,
                    duration REAL NOT NULL, identifiers TEXT, seconds REAL, ending TEXT,
                    isListen INTEGER NOT NULL DEFAULT 0, isPractice INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (listenedAt, path));
                INSERT INTO hearings (id, listenedAt, path, title, artists, duration, isListen)
                    VALUES (7, 100, '/old.mp3', 'Old', '["A"]', 200, 1);
                """)
        }
        let history = try database()
        #expect(try history.pending(for: "listenbrainz", limit: 10).map(\.hearing) == [7])
        let stream = { (title: String) in
            QueueItem(
                id: 9, path: "http://radio/live",
                metadata: TrackMetadata(title: title, artist: "B", duration: 0, sampleRate: 44_100, channels: 2))
        }
        try history.record([.listened(item: stream("One"), began: 500)])
        try history.record([.itemHeard(HeardItem(item: stream("Two"), began: 500, seconds: 90, ending: .stopped))])
        let page = try history.page(offset: 0, limit: 10, since: nil, until: nil)
        #expect(page.total == 3 && page.listens.filter(\.isListen).map(\.title) == ["One", "Old"])
    }
}
