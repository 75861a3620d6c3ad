import Testing

@testable import PlaybackModel

/// A queue item keeps its path, track fields and file identity as one encoded record
/// (`ItemRecord`): whatever goes in comes back, every field of the table included.
@Suite struct QueueItemRecordTests {
    /// Metadata with every field of `TrackField.all` set to a value of its own, and chapters
    /// and other artists: a field added to the table but not to the record is lost here.
    private static func everyField() -> TrackMetadata {
        var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        for (index, field) in TrackField.all.enumerated() {
            let value: TrackFieldValue =
                switch field.storage {
                case .requiredText, .text: .text("Sigur Rós \(index) — ünïcode")
                case .path: .text("/covers/\(index).jpg")
                case .number, .requiredNumber: .number(index * 1_000 + 7)
                case .seconds: .seconds(1234.5678)
                case .decimal: .decimal(-Double(index) - 0.125)
                }
            #expect(field.set(value, in: &metadata), "\(field.key) takes a value of its kind")
        }
        metadata.chapters = [
            Chapter(start: 0, end: 10.5, title: "Intro"), Chapter(start: 10.5, end: 1234.5678, title: ""),
        ]
        metadata.otherArtists = ["Jónsi", "Björk"]
        return metadata
    }

    @Test("every field, the chapters, the other artists and the file identity come back as they went in")
    func everyFieldComesBack() {
        let metadata = Self.everyField()
        let file = FileIdentity(size: 123_456_789_012, modified: -5)
        let item = QueueItem(id: 42, path: "/music/Ágætis byrjun/01 Intro.flac", metadata: metadata, file: file)
        #expect(item.id == 42)
        #expect(item.path == "/music/Ágætis byrjun/01 Intro.flac")
        #expect(item.metadata == metadata)
        #expect(item.file == file)
        for field in TrackField.all {
            #expect(field.value(in: item.metadata) == field.value(in: metadata), "\(field.key)")
        }
    }

    @Test("absent values stay absent; a bare item keeps its zeros and empty title")
    func absentValues() {
        let bare = TrackMetadata(title: "", duration: 0, sampleRate: 44_100, channels: 2)
        let item = QueueItem(id: 1, path: "https://radio.example/stream", metadata: bare)
        #expect(item.metadata == bare)
        #expect(item.file == nil)
        #expect(item.metadata.artist == nil && item.metadata.year == nil && item.metadata.chapters.isEmpty)
    }

    @Test("setting one part keeps the others; equal parts make equal items")
    func settingOnePart() {
        var item = QueueItem(id: 3, path: "/a.mp3", metadata: Self.everyField())
        item.file = FileIdentity(size: 10, modified: 20)
        item.path = "/moved/a.mp3"
        item.metadata.title = "Renamed"
        #expect(item.path == "/moved/a.mp3")
        #expect(item.file == FileIdentity(size: 10, modified: 20))
        var expected = Self.everyField()
        expected.title = "Renamed"
        #expect(item.metadata == expected)
        #expect(
            item
                == QueueItem(
                    id: 3, path: "/moved/a.mp3", metadata: expected, file: FileIdentity(size: 10, modified: 20)))
        #expect(item != QueueItem(id: 3, path: "/moved/a.mp3", metadata: expected))
    }

    @Test("a gain of -0 is the item with a gain of 0 (the state file writes both as 0; found by fuzzing)")
    func negativeZero() {
        var negative = TrackMetadata(title: "a", duration: 1, sampleRate: 44_100, channels: 2)
        negative.replayGainAlbumGain = -0.0
        var positive = negative
        positive.replayGainAlbumGain = 0
        #expect(QueueItem(id: 1, path: "/a", metadata: negative) == QueueItem(id: 1, path: "/a", metadata: positive))
    }

    @Test("long values: a title of 100,000 bytes and a thousand chapters")
    func longValues() {
        var metadata = TrackMetadata(
            title: String(repeating: "é", count: 50_000), duration: 4_000, sampleRate: 48_000, channels: 6)
        metadata.chapters = (0..<1_000).map {
            Chapter(start: Double($0) * 4, end: Double($0 + 1) * 4, title: "Chapter \($0)")
        }
        let item = QueueItem(id: .max, path: "/" + String(repeating: "a", count: 4_000), metadata: metadata)
        #expect(item.metadata == metadata)
        #expect(item.id == .max)
    }
}
