import ControlProtocol
import PlaybackModel
import Testing

@testable import PlaybackDaemon

@Suite struct ResumeStateTests {
    private func state() -> ResumeState {
        var tagged = TrackMetadata(
            title: "Tïtle \"quoted\"", artist: "Artist", album: nil, duration: 12.345, sampleRate: 48_000, channels: 1)
        tagged.albumArtist = "Band"
        tagged.composer = "Ω"
        tagged.genre = "Jazz"
        tagged.year = 2010
        tagged.trackNumber = 3
        tagged.trackCount = 12
        tagged.discNumber = 1
        tagged.discCount = 2
        tagged.artworkPath = "/run/user/1000/playbackd/artwork/0123.jpg"
        tagged.chapters = [
            Chapter(start: 0, end: 4, title: "One"), Chapter(start: 4, end: 12.345, title: "Two, \"quoted\""),
        ]
        let plain = TrackMetadata(title: "plain", duration: 1, sampleRate: 44_100, channels: 2)
        return ResumeState(
            items: [
                QueueItem(id: 1, path: "/m/a b.mp3", metadata: tagged),
                QueueItem(id: 2, path: "/m/c.mp3", metadata: plain),
            ],
            currentIndex: 1, position: 0.75, state: .paused, repeatMode: .all, shuffleMode: .items,
            shuffledOrder: [1, 0], disabledCommands: [.skipBackward, .nextTrack], volume: 62.5,
            phraseMode: PhraseMode(isEnabled: true, repeats: 3, gapFactor: 1.5, gapExtra: 0.25),
            crossfade: Crossfade(seconds: 4.5, mode: .always, skipSeconds: 0.5), outputEnabled: false)
    }

    @Test("a state reads back equal from its file, every metadata field and the chapters included")
    func roundTrip() throws {
        let original = state()
        let parsed = try ResumeState(fileBytes: original.fileBytes())
        #expect(parsed == original)
    }

    @Test(
        "an item line read in place gives the item its JSON gives: 500 items of random fields, every line also escaped")
    func inPlaceAsParsed() throws {
        var generator = SystemRandomNumberGenerator()
        let texts = ["Tïtle", "日本語の題名", "a", "", "Sigur Rós — Ágætis byrjun", "quote \" inside"]
        let items = (0..<500).map { index -> QueueItem in
            var metadata = TrackMetadata(
                title: texts.randomElement(using: &generator)!, duration: Double.random(in: 0...7200),
                sampleRate: [8_000, 44_100, 48_000, 96_000].randomElement()!, channels: Int.random(in: 1...8))
            for field in TrackField.all where Bool.random() {
                switch field.storage {
                case .text, .requiredText: field.set(.text(texts.randomElement()! + "\(index)"), in: &metadata)
                case .path: field.set(.text("/covers/\(index).jpg"), in: &metadata)
                case .number: field.set(.number(Int.random(in: -3...3_000)), in: &metadata)
                case .decimal:
                    field.set(.decimal([-0.0, 1.5, -6.2, Double.random(in: -20...20)].randomElement()!), in: &metadata)
                case .seconds, .requiredNumber: break
                }
            }
            return QueueItem(id: UInt64(index + 1), path: "/music/\(index) \(metadata.title).flac", metadata: metadata)
        }
        let original = ResumeState(
            items: items, currentIndex: 0, position: 0, state: .stopped, repeatMode: .off, shuffleMode: .off,
            shuffledOrder: nil, disabledCommands: [])
        let bytes = original.fileBytes()
        let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n"))!
        // "\/" is "/" in JSON: every line then has an escape, and is parsed as JSON.
        var escaped = Array(bytes[...headerEnd])
        for byte in bytes[(headerEnd + 1)...] {
            if byte == UInt8(ascii: "/") { escaped.append(UInt8(ascii: "\\")) }
            escaped.append(byte)
        }
        #expect(try ResumeState(fileBytes: bytes).items == items)
        #expect(try ResumeState(fileBytes: escaped).items == items)
    }

    @Test("the file is a line of settings naming the items' columns once, then a line per item")
    func itemLines() throws {
        let text = String(decoding: state().fileBytes(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty, "\(text)")
        #expect(lines[0].contains(#""itemCount":2"#) && lines[0].contains(#""itemColumns":["title","artist","#))
        #expect(!lines[0].contains("/m/a b.mp3"))
        // Columns are the fields some item has (no album here). The plain item has no artist and
        // no tags: nulls hold their places, and none follows its last value.
        #expect(lines[2] == #"["/m/c.mp3","plain",null,1,null,null,null,null,null,null,null,null,null,44100,2]"#)
        #expect(!text.contains(#""sampleRate":"#), "no item repeats a field's key")
    }

    @Test("a version 1 file (one line, the items as objects) reads as the state it held")
    func versionOne() throws {
        let text = #"""
            {"version":1,"currentIndex":1,"position":3.5,"state":"paused","repeatMode":"all","shuffleMode":"off","disabledCommands":["nextTrack"],"items":[{"path":"/music/a.mp3","title":"A","duration":10.5,"sampleRate":44100,"channels":2,"chapters":[{"start":0,"end":10.5,"title":"Only"}]},{"path":"/music/b.mp3","title":"B","artist":"X","duration":3,"sampleRate":48000,"channels":1,"replayGainAlbumGain":-3}]}
            """#
        let state = try ResumeState(fileBytes: Array((text + "\n").utf8))
        #expect(state.items.map(\.path) == ["/music/a.mp3", "/music/b.mp3"])
        #expect(state.items.map(\.id) == [1, 2])
        #expect(state.items[0].metadata.chapters == [Chapter(start: 0, end: 10.5, title: "Only")])
        #expect(state.items[1].metadata.artist == "X" && state.items[1].metadata.replayGainAlbumGain == -3)
        #expect(state.currentIndex == 1 && state.position == 3.5 && state.repeatMode == .all)
        #expect(try ResumeState(fileBytes: state.fileBytes()) == state, "and writes back as this version")
    }

    @Test(
        "a long queue's head is its current item with the id the whole file gives it, where it stands, and the settings; a short queue, one with no current item or another version has none"
    )
    func head() throws {
        var long = state()
        long.items = (0..<12).map { index in
            QueueItem(
                id: UInt64(index + 1), path: "/m/\(index).mp3",
                metadata: TrackMetadata(title: "T\(index)", duration: 1, sampleRate: 44_100, channels: 2))
        }
        (long.currentIndex, long.shuffledOrder) = (9, Array((0..<12).reversed()))
        func head(_ bytes: [UInt8], minimumItems: Int) throws(StateFileError) -> (ResumeState, QueueLoading)? {
            try ResumeState.head(fileBytes: bytes, minimumItems: minimumItems)
        }
        let bytes = long.fileBytes()
        let (shown, loading) = try #require(try head(bytes, minimumItems: 10))
        #expect(loading == QueueLoading(index: 9, count: 12))
        #expect(shown.items == [try ResumeState(fileBytes: bytes).items[9]], "the same item, id 10")
        #expect(shown.currentIndex == 0 && shown.shuffledOrder == nil)
        #expect(
            shown.position == 0.75 && shown.repeatMode == .all && shown.volume == 62.5 && shown.outputEnabled == false)
        #expect(try head(bytes, minimumItems: 13) == nil, "read whole at once")
        long.currentIndex = nil
        #expect(try head(long.fileBytes(), minimumItems: 1) == nil)
        let versionOne =
            #"{"version":1,"currentIndex":null,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[],"items":[]}"#
        #expect(try head(Array((versionOne + "\n").utf8), minimumItems: 0) == nil)
        // A current item's line that is not an item: the head fails as the whole would.
        long.currentIndex = 11
        var broken = long.fileBytes()
        broken.replaceSubrange((broken.count - 3)..., with: Array("x]\n".utf8))
        #expect(throws: StateFileError.self) { try head(broken, minimumItems: 1) }
    }

    private static let header =
        #"{"version":2,"currentIndex":null,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[],"#

    @Test(
        "an item line that is not what its header says is an error that names it",
        arguments: [
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":2}"# + "\n" + #"["/a","t",44100,2]"#,
                "1 item lines where itemCount says 2"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["/a","t",44100,2]"#
                    + "\n" + #"["/b","t",44100,2]"#, "more item lines than itemCount 1"
            ),
            (#""itemColumns":["title","mood"],"itemCount":0}"#, "itemColumns: 'mood' is no field"),
            (#""itemColumns":["title","title"],"itemCount":0}"#, "itemColumns: 'title' is given twice"),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"{"path":"/a"}"#,
                "item 0: not an array of a path and at most 3 values"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["/a","t",44100,2,5]"#,
                "item 0: not an array of a path and at most 3 values"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["/a","t","fast",2]"#,
                "item 0: 'sampleRate' is not valid"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["/a","t",44100]"#,
                "item 0: 'channels' is missing"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["a","t",44100,2]"#,
                "item 0: path is neither absolute nor an http(s) URL"
            ),
            (
                #""itemColumns":["title","sampleRate","channels"],"itemCount":1}"# + "\n" + #"["/a","t",44100,2"#,
                "item 0: invalid JSON at byte 17: expected ',' or ']'"
            ),
            (#""itemColumns":["title"],"itemCount":1e300}"#, "state: 'itemCount' is missing or not a whole number"),
        ])
    func badItemLines(_ text: String, _ message: String) throws {
        #expect(throws: StateFileError(message)) { try ResumeState(fileBytes: Array((Self.header + text).utf8)) }
    }

    @Test(
        "a state with a bad field is an error that names it",
        arguments: [
            (#"{"version":3,"items":[]}"#, "unsupported version 3"),
            (#"{"version":1}"#, "state: 'items' is missing or not an array"),
            (
                #"{"version":1,"items":[{"path":"/a","title":"t","duration":1,"sampleRate":44100,"channels":2}],"currentIndex":3,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[]}"#,
                "currentIndex 3 is outside the 1 items"
            ),
            (
                #"{"version":1,"items":[{"path":"a","title":"t","duration":1,"sampleRate":44100,"channels":2}]}"#,
                "item 0: path is neither absolute nor an http(s) URL"
            ),
            (
                #"{"version":1,"items":[],"currentIndex":null,"position":0,"state":"dancing","repeatMode":"off","shuffleMode":"off","disabledCommands":[]}"#,
                "state: 'state' is missing or not a known value"
            ),
            (
                #"{"version":1,"items":[],"currentIndex":null,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[],"volume":140}"#,
                "volume 140.0 is outside 0 - 100"
            ),
            (
                #"{"version":1,"items":[],"currentIndex":null,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[],"crossfade":{"seconds":40,"mode":"always","skipSeconds":1}}"#,
                "crossfade: seconds or skipSeconds out of range"
            ),
            (
                #"{"version":1,"items":[],"currentIndex":null,"position":0,"state":"paused","repeatMode":"off","shuffleMode":"off","disabledCommands":[],"outputEnabled":"no"}"#,
                "outputEnabled is not a boolean"
            ),
        ])
    func badFields(_ text: String, _ message: String) throws {
        #expect(throws: StateFileError(message)) { try ResumeState(fileBytes: Array(text.utf8)) }
    }

    @Test("the queue's items revision moves with its items only")
    func itemsRevision() {
        var queue = PlaybackQueue(random: SplitMix64(seed: 1))
        var seen = [queue.itemsRevision]
        queue.append(state().items)
        seen.append(queue.itemsRevision)
        queue.select(1)
        queue.setShuffle(.items)
        queue.repeatMode = .one
        queue.advance()
        #expect(queue.itemsRevision == seen.last, "selecting, modes and advancing leave the items alone")
        queue.move(from: 0, to: 1)
        seen.append(queue.itemsRevision)
        queue.remove(at: [0])
        seen.append(queue.itemsRevision)
        queue.removeAll()
        seen.append(queue.itemsRevision)
        #expect(Set(seen).count == seen.count, "each edit gives a new revision: \(seen)")
    }
}
