import ControlProtocol
import DocumentationSupport
import PlaybackModel
import SystemSupport
import Testing

@testable import PlaybackDaemon

/// The MPRIS declarations: the documentation follows them, values have the types they declare,
/// and the mapping rules (jumps, error names, bus addresses) hold.
@Suite struct MPRISDeclarationTests {
    @Test("docs/mpris.md holds the current tables of members and metadata")
    func documentationIsCurrent() throws {
        try GeneratedDocument.check(
            "docs/mpris.md", MPRISReference.membersSection, content: MPRISReference.membersTable)
        try GeneratedDocument.check(
            "docs/mpris.md", MPRISReference.metadataSection, content: MPRISReference.metadataTable)
    }

    @Test("every property's value has the type its declaration gives, with and without an item")
    func valuesHaveTheirDeclaredTypes() {
        var metadata = TrackMetadata(title: "T", artist: "A", album: "B", duration: 2.5, sampleRate: 44100, channels: 2)
        metadata.genre = "Rock"
        metadata.trackNumber = 3
        metadata.artworkPath = "/tmp/cover art.jpg"
        let item = QueueItem(id: 7, path: "/music/a b.mp3", metadata: metadata)
        for current in [item, nil] {
            let view = MPRISView(
                snapshot: NowPlaying(
                    state: .paused, item: current, elapsed: 1.25, rate: 0, timestamp: 0, queueIndex: 0, queueCount: 1),
                availability: CommandAvailability())
            for interface in MPRIS.interfaces {
                for property in interface.properties {
                    guard case .property(let type, _, _) = property.member.kind else { continue }
                    #expect(property.value(view).signature == type, "\(interface.name).\(property.member.name)")
                }
            }
        }
    }

    @Test("Metadata uses MPRIS's types: lists, an object path, microseconds, file URIs")
    func metadataTypes() {
        var metadata = TrackMetadata(title: "T", artist: "A", duration: 2.5, sampleRate: 44100, channels: 2)
        metadata.genre = "Rock"
        metadata.albumArtist = "Band"
        metadata.trackNumber = 3
        metadata.artworkPath = "/tmp/cover art.jpg"
        guard case .dictionary(let entries) = MPRIS.metadata(QueueItem(id: 7, path: "/m/a b.mp3", metadata: metadata))
        else { return #expect(Bool(false), "Metadata is a dictionary") }
        let values = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
        #expect(values["mpris:trackid"] == .objectPath("/org/playbackd/item/7"))
        #expect(values["mpris:length"] == .int64(2_500_000))
        #expect(values["xesam:artist"] == .strings(["A"]))
        #expect(values["xesam:albumArtist"] == .strings(["Band"]))
        #expect(values["xesam:genre"] == .strings(["Rock"]))
        #expect(values["xesam:title"] == .string("T"))
        #expect(values["xesam:trackNumber"] == .int32(3))
        #expect(values["mpris:artUrl"] == .string("file:///tmp/cover%20art.jpg"))
        #expect(values["xesam:url"] == .string("file:///m/a%20b.mp3"))
        #expect(values["xesam:album"] == nil, "a field the tags lack is left out")
        #expect(MPRIS.metadata(nil) == .dictionary([BusEntry("mpris:trackid", .objectPath(MPRIS.noTrack))]))
    }

    @Test("a jump is a move of 0.5 s or more against the prediction, within one item")
    func jumps() {
        let item = QueueItem(
            id: 1, path: "/a.mp3", metadata: TrackMetadata(title: "a", duration: 60, sampleRate: 44100, channels: 2))
        let other = QueueItem(id: 2, path: "/b.mp3", metadata: item.metadata)
        func playing(_ current: QueueItem, at elapsed: Double, time: Double) -> NowPlaying {
            NowPlaying(
                state: .playing, item: current, elapsed: elapsed, rate: 1, timestamp: time, queueIndex: 0, queueCount: 2
            )
        }
        let before = playing(item, at: 10, time: 100)
        #expect(!playing(item, at: 15.03, time: 105).jumped(from: before), "re-anchored by 30 ms")
        #expect(playing(item, at: 40, time: 105).jumped(from: before), "a seek forward")
        #expect(playing(item, at: 0, time: 105).jumped(from: before), "a restart")
        #expect(!playing(other, at: 0, time: 105).jumped(from: before), "a new item")
    }

    @Test("refusals are org.playbackd.Error.<Status>")
    func errorNames() {
        #expect(MPRIS.errorName(.commandDisabled) == "org.playbackd.Error.CommandDisabled")
        #expect(MPRIS.errorName(.noSuchContent) == "org.playbackd.Error.NoSuchContent")
    }

    @Test("the session bus socket follows DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus")
    func busAddress() {
        #expect(SessionBusAddress.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/user/1/bus")
        #expect(
            SessionBusAddress.socketPath(environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1/my%20bus,guid=abc", "XDG_RUNTIME_DIR": "/x",
            ]) == "/run/user/1/my bus")
        #expect(
            SessionBusAddress.socketPath(environment: ["DBUS_SESSION_BUS_ADDRESS": "tcp:host=a;unix:path=/b"]) == "/b")
        #expect(SessionBusAddress.socketPath(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/x"]) == nil)
        #expect(SessionBusAddress.socketPath(environment: [:]) == nil)
    }
}
