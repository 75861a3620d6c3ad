import ControlProtocol
import DocumentationSupport
import Foundation
import PlaybackModel
import Testing

/// The track-field table and the typed snapshot: what the daemon writes is what the CLI reads.
@Suite struct TrackFieldTests {
    /// An item with every field of the table set, each to a value of its own (seconds exact to
    /// the microsecond), so a field added to the table is covered without editing this test.
    static func fullItem() -> QueueItem {
        var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        for (index, field) in TrackField.all.enumerated() {
            let value: TrackFieldValue =
                switch field.storage {
                case .requiredText, .text: .text("\(field.key) ✓ \"\(index)\"")
                case .number, .requiredNumber: .number(index + 1)
                case .seconds: .seconds(3725.5 + Double(index))
                case .decimal: .decimal(-6.25 + Double(index))
                case .path: .text("/run/user/1000/playbackd/artwork/\(field.key) \(index).jpg")
                }
            field.set(value, in: &metadata)
        }
        return QueueItem(id: 42, path: "/music/Kind of Blue/03 Blue in Green.mp3", metadata: metadata)
    }

    /// Through the wire as text: serialize, parse, decode.
    static func overTheWire(_ json: JSONValue) throws -> JSONValue {
        try JSONParser.parse(Array(json.serialized.utf8))
    }

    @Test("every field of the table is set by the full item, and keys are unique")
    func tableIsComplete() {
        let item = Self.fullItem()
        for field in TrackField.all { #expect(field.value(in: item.metadata) != nil, "\(field.key)") }
        #expect(Set(TrackField.all.map(\.key)).count == TrackField.all.count)
        #expect(Set(TrackField.all.map(\.stateKey)).count == TrackField.all.count)
    }

    @Test("each field's encoder and decoder agree, on the wire and in the resume state")
    func codecsAgree() {
        let metadata = Self.fullItem().metadata
        for field in TrackField.all {
            let value = field.value(in: metadata)!
            for onWire in [true, false] {
                #expect(field.decode(field.json(value, onWire: onWire), onWire: onWire) == value, "\(field.key)")
            }
            var copy = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
            #expect(field.set(value, in: &copy))
            #expect(field.value(in: copy) == value, "\(field.key): set, then read")
        }
    }

    @Test("a snapshot with every field survives the wire unchanged; so does a cleared one")
    func snapshotRoundTrip() throws {
        let playing = NowPlaying(
            state: .playing, item: Self.fullItem(), elapsed: 83.25, rate: 1, timestamp: 1_790_000_000.123456,
            queueIndex: 2, queueCount: 7, repeatMode: .all, shuffleMode: .items,
            routeChange: RouteChange(reason: .newDeviceAvailable, device: "USB DAC", timestamp: 1_790_000_000.5))
        #expect(try NowPlaying(json: Self.overTheWire(playing.json)) == playing)
        var cleared = NowPlaying(
            state: .stopped, item: nil, elapsed: 0, rate: 0, timestamp: 0, queueIndex: nil, queueCount: 0,
            repeatMode: .one,
            routeChange: RouteChange(reason: .oldDeviceUnavailable, device: "Headphones", timestamp: 3))
        #expect(try NowPlaying(json: Self.overTheWire(cleared.json)) == cleared)
        cleared.outputEnabled = false
        #expect(try NowPlaying(json: Self.overTheWire(cleared.json)) == cleared)
        var untagged = playing
        untagged.item?.metadata = TrackMetadata(title: "x", duration: 1, sampleRate: 44_100, channels: 1)
        untagged.queueIndex = nil
        #expect(try NowPlaying(json: Self.overTheWire(untagged.json)) == untagged)
        #expect(try QueueItem(json: Self.overTheWire(Self.fullItem().json)) == Self.fullItem())
    }

    @Test("fields read the same in any order; unknown keys are ignored; of a key given twice the first counts")
    func memberOrder() throws {
        guard case .object(let members) = Self.fullItem().json else { throw ItemIsNotAnObject() }
        let expected = try QueueItem(json: .object(members))
        #expect(try QueueItem(json: .object(members.reversed())) == expected)
        #expect(
            try QueueItem(json: .object([("surplus", .string("x"))] + members.shuffled() + [("more", .null)]))
                == expected)
        let doubled =
            members.map { $0.0 == "title" ? ($0.0, JSONValue.string("First")) : $0 } + [("title", .string("Second"))]
        #expect(try QueueItem(json: .object(doubled)).metadata.title == "First")
        #expect(throws: WireDecodingError.self) {
            try QueueItem(json: .object(members.filter { $0.0 != "sampleRate" }))
        }
        // A live stream has no duration: null or absent.
        #expect(try QueueItem(json: .object(members.filter { $0.0 != "duration" })).metadata.duration == 0)
    }

    struct ItemIsNotAnObject: Error {}

    @Test("a renamed or mistyped key is an error that names it, not a silent gap")
    func decodingErrors() throws {
        let json = NowPlaying(
            state: .paused, item: Self.fullItem(), elapsed: 1, rate: 0, timestamp: 2, queueIndex: 0, queueCount: 1
        ).json
        func replacing(_ key: String, with value: JSONValue?) -> JSONValue {
            guard case .object(let members) = json else { return json }
            return .object(members.compactMap { $0.0 == key ? value.map { (key, $0) } : $0 })
        }
        func adding(_ key: String, _ value: JSONValue) -> JSONValue {
            guard case .object(let members) = json else { return json }
            return .object(members + [(key, value)])
        }
        let cases: [(JSONValue, String)] = [
            (replacing("title", with: nil), "'title' is missing"),
            (replacing("year", with: .string("1959")), "'year' is not valid"),
            (replacing("duration", with: .string("long")), "'duration' is not valid"),
            (replacing("artworkURL", with: .string("http://example.invalid/a.jpg")), "'artworkURL' is not valid"),
            (replacing("state", with: .string("dancing")), "'state' is missing or not a known value"),
            (replacing("itemID", with: .number(-1)), "'itemID' is missing or not a whole number"),
            (
                adding("routeChange", .object([("reason", .string("unplugged"))])),
                "'reason' is missing or not a known value"
            ),
            (
                adding("routeChange", .object([("reason", .string("newDeviceAvailable")), ("timestamp", .number(1))])),
                "'device'"
            ),
        ]
        for (broken, message) in cases {
            #expect(throws: WireDecodingError.self) { try NowPlaying(json: broken) }
            do {
                _ = try NowPlaying(json: broken)
            } catch {
                #expect(error.description.contains(message), "\(error)")
            }
        }
    }

    @Test("docs/protocol.md holds the track-field table generated from TrackField.all")
    func referenceIsCurrent() throws {
        try GeneratedDocument.check(
            "docs/protocol.md", TrackFieldReference.section, content: TrackFieldReference.markdown)
    }
}

@Suite struct ListeningWireTests {
    @Test("the snapshot's chapter and sleep timer, and the chapters and bookmarks replies, read back what they write")
    func roundTrips() throws {
        let item = QueueItem(
            id: 7, path: "/b/book.m4b",
            metadata: TrackMetadata(title: "Book", duration: 3600, sampleRate: 44_100, channels: 2))
        for timer in [SleepTimer.at(1_795_000_000.25), .endOfItem, .endOfChapter, nil] {
            var snapshot = NowPlaying(
                state: .paused, item: item, elapsed: 61.5, rate: 0, timestamp: 1_795_000_000, queueIndex: 0,
                queueCount: 1)
            snapshot.chapter = CurrentChapter(number: 1, count: 3, title: "Zwei ✓", start: 60, end: 120.5)
            snapshot.sleepTimer = timer
            snapshot.loopRange = timer == nil ? LoopRange(itemID: 7, start: 1.25, end: 9, count: 0, pass: 12) : nil
            #expect(try NowPlaying(json: JSONParser.parse(Array(snapshot.json.serialized.utf8))) == snapshot)
        }
        let chapters = [Chapter(start: 0, end: 2.5, title: "A"), Chapter(start: 2.5, end: 8, title: "B \"quoted\"")]
        let bookmarks = [
            Bookmark(path: "/b/book.m4b", title: "Book", position: 61.5, duration: 3600, saved: 1_795_000_000)
        ]
        for outcome in [CommandOutcome.chapters(chapters), .chapters([]), .bookmarks(bookmarks), .bookmarks([])] {
            let json = JSONValue.object(outcome.fields)
            #expect(try CommandOutcome(json: json, kind: outcome.kind) == outcome)
        }
        let written = NowPlaying(
            state: .paused, item: item, elapsed: 1, rate: 0, timestamp: 1, queueIndex: 0, queueCount: 1
        ).json.serialized
        #expect(written.contains(#""sleepTimer":null"#))
        let bad = written.replacingOccurrences(of: #""sleepTimer":null"#, with: #""sleepTimer":"later""#)
        #expect(throws: WireDecodingError.self) { try NowPlaying(json: JSONParser.parse(Array(bad.utf8))) }
    }
}
