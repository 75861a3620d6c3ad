import ControlProtocol
import PlaybackModel
import SystemSupport

/// What an MPRIS member sees: the last published snapshot and the command availability. Every
/// property value is read from it; nothing about now-playing is computed again here.
struct MPRISView: Sendable {
    var snapshot: NowPlaying
    var availability: CommandAvailability

    /// Whether `name` is enabled and there is an item for it to act on.
    func can(_ name: CommandName) -> Bool { availability.isEnabled(name) && snapshot.item != nil }

    /// The position now, in microseconds, extrapolated from the snapshot.
    var positionMicroseconds: Int64 { MPRIS.microseconds(snapshot.position(at: WallClock.now())) }
}

/// What an MPRIS method call or property write asks the player to do.
enum MPRISAction: Equatable {
    /// A command for `PlayerService`, refused there when disabled, like every front end's.
    case command(Command)
    /// Nothing (the spec's answer to a stale track id, a position past the end, `Raise`).
    case nothing
    /// End the daemon (`Quit`).
    case quit
}

/// One MPRIS property, declared once: its bus member (name, type, how it announces changes),
/// its value, and for a writable one the action a write becomes.
struct MPRISProperty: Sendable {
    let member: BusMember
    let value: @Sendable (MPRISView) -> BusValue
    let write: (@Sendable (BusMessageReader, MPRISView) throws(BusCallError) -> MPRISAction)?

    init(
        _ name: String, _ type: String, _ emits: BusMember.Emits, _ summary: String,
        value: @escaping @Sendable (MPRISView) -> BusValue,
        write: (@Sendable (BusMessageReader, MPRISView) throws(BusCallError) -> MPRISAction)? = nil
    ) {
        member = .property(name, type, writable: write != nil, emits, summary)
        self.value = value
        self.write = write
    }
}

/// One MPRIS method, declared once: its bus member and the action a call becomes.
struct MPRISMethod: Sendable {
    let member: BusMember
    let action: @Sendable (BusMessageReader, MPRISView) throws(BusCallError) -> MPRISAction

    init(
        _ name: String, _ summary: String, input: [BusArgument] = [],
        action: @escaping @Sendable (BusMessageReader, MPRISView) throws(BusCallError) -> MPRISAction
    ) {
        member = .method(name, input, summary)
        self.action = action
    }
}

/// One MPRIS interface: its methods, properties and signals.
struct MPRISInterface: Sendable {
    let name: String
    let methods: [MPRISMethod]
    let properties: [MPRISProperty]
    let signals: [BusMember]

    /// The declaration sd-bus serves and introspects.
    var bus: BusInterface { BusInterface(name, methods.map(\.member) + properties.map(\.member) + signals) }

    func property(_ name: String) -> MPRISProperty? { properties.first { $0.member.name == name } }
    func method(_ name: String) -> MPRISMethod? { methods.first { $0.member.name == name } }
}

/// The MPRIS2 object playbackd serves: names, paths and the two interfaces.
enum MPRIS {
    static let objectPath = "/org/mpris/MediaPlayer2"
    /// The bus name; a second instance adds `.instance<PID>`.
    static let busName = "org.mpris.MediaPlayer2.playbackd"
    /// The track id of "no track" (the spec's).
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Prefix of error names for commands the player refused (`...CommandDisabled`).
    static let errorPrefix = "org.playbackd.Error."

    static let interfaces = [root, player]

    /// The stable track id of a queue item (outside `/org/mpris`, as the spec asks).
    static func trackID(_ id: UInt64) -> String { "/org/playbackd/item/\(id)" }

    static func trackID(of item: QueueItem?) -> String { item.map { trackID($0.id) } ?? noTrack }

    static func microseconds(_ seconds: Double) -> Int64 {
        seconds.isFinite ? Int64((seconds * 1_000_000).rounded()) : 0
    }
}
