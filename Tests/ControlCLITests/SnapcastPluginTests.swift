import ControlProtocol
import PlaybackModel
import Testing

@testable import ControlCLI

/// What the Snapcast stream plugin tells snapserver, from a snapshot (the wire itself is
/// tested against the real snapserver in the integration tests).
@Suite struct SnapcastPluginTests {
    private static let item = QueueItem(
        id: 7, path: "/music/a b.mp3",
        metadata: TrackMetadata(
            title: "Song", artist: "Band", album: "Record", duration: 200, sampleRate: 44_100, channels: 2))

    @Test func aPlayingItemsProperties() throws {
        let nowPlaying = NowPlaying(
            state: .playing, item: Self.item, elapsed: 10, rate: 1, timestamp: 1000, queueIndex: 0, queueCount: 2,
            repeatMode: .one, shuffleMode: .items, volume: 70, defaultRate: 1.25)
        var availability = CommandAvailability()
        _ = availability.set(.nextTrack, enabled: false)
        let json = SnapcastProperties.json(
            nowPlaying, availability: availability, now: 1002.5,
            metadata: SnapcastProperties.metadata(Self.item, cover: nil))
        #expect(json["playbackStatus"]?.stringValue == "playing")
        #expect(json["position"]?.numberValue == 12.5)
        #expect(json["loopStatus"]?.stringValue == "track" && json["shuffle"]?.boolValue == true)
        #expect(json["volume"]?.numberValue == 70 && json["rate"]?.numberValue == 1.25)
        #expect(json["canGoNext"]?.boolValue == false, "nextTrack disabled")
        #expect(json["canGoPrevious"]?.boolValue == true && json["canSeek"]?.boolValue == true)
        #expect(json["metadata"]?["title"]?.stringValue == "Song")
        #expect(json["metadata"]?["artist"]?.arrayValue == [.string("Band")])
        #expect(json["metadata"]?["url"]?.stringValue == "file:///music/a%20b.mp3")
    }

    @Test func playbackdAwayIsStoppedWithNothingToControl() {
        let json = SnapcastProperties.json(nil, availability: nil, now: 0, metadata: nil)
        #expect(json["playbackStatus"]?.stringValue == "stopped")
        #expect(json["canControl"]?.boolValue == false && json["canPlay"]?.boolValue == false)
    }

    @Test func statesAndModesAsSnapcastNamesThem() {
        #expect(SnapcastProperties.status(.interrupted) == "paused")
        #expect(SnapcastProperties.status(.stopped) == "stopped")
        #expect([RepeatMode.off, .one, .all].map(SnapcastProperties.loopStatus) == ["none", "track", "playlist"])
    }

    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy"),
        ("\u{FF}\u{FE}", "w7/Dvg=="),
    ])
    func base64AsRFC4648(text: String, encoded: String) {
        #expect(Base64.encode(Array(text.utf8)) == encoded)
    }
}
