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

    @Test("a state reads back equal from its file, every metadata field included")
    func roundTrip() throws {
        let original = state()
        let parsed = try ResumeState(json: try JSONParser.parse(original.fileBytes()))
        #expect(parsed == original)
    }

    @Test("serialized items given by the cache give the same file")
    func cachedItems() {
        let original = state()
        var moved = original
        moved.position = 9
        #expect(moved.fileBytes(items: original.itemsBytes) == moved.fileBytes())
    }

    @Test(
        "a state with a bad field is an error that names it",
        arguments: [
            (#"{"version":2,"items":[]}"#, "unsupported version 2"),
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
        #expect(throws: StateFileError(message)) { try ResumeState(json: try JSONParser.parse(Array(text.utf8))) }
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
