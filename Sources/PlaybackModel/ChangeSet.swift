/// What changed in one step of the player, coalesced into bits (MPD's idle masks).
/// Subscribers receive the bits with a fresh snapshot.
public struct ChangeSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Transport state: playing, paused, stopped, interrupted.
    public static let state = ChangeSet(rawValue: 1 << 0)
    /// The current item changed.
    public static let item = ChangeSet(rawValue: 1 << 1)
    /// The position jumped (seek, skip, restart), outside normal progress.
    public static let position = ChangeSet(rawValue: 1 << 2)
    /// Items were added or removed.
    public static let queue = ChangeSet(rawValue: 1 << 3)
    /// A command was enabled or disabled.
    public static let commands = ChangeSet(rawValue: 1 << 4)
    /// The repeat or shuffle mode changed.
    public static let modes = ChangeSet(rawValue: 1 << 5)
    /// The volume changed.
    public static let volume = ChangeSet(rawValue: 1 << 6)
    /// The equalizer changed.
    public static let equalizer = ChangeSet(rawValue: 1 << 7)
    /// The ReplayGain settings changed (the applied gain is in the snapshot).
    public static let replayGain = ChangeSet(rawValue: 1 << 8)
    /// The playback rate (`defaultRate`) changed.
    public static let rate = ChangeSet(rawValue: 1 << 9)
    /// The audio route changed (`routeChange` in the snapshot says how).
    public static let route = ChangeSet(rawValue: 1 << 10)
    /// The chapter playing changed (at its boundary, or by a move).
    public static let chapter = ChangeSet(rawValue: 1 << 11)
    /// The sleep timer was set, cancelled or fired.
    public static let sleepTimer = ChangeSet(rawValue: 1 << 12)
    /// An A-B loop was set, cleared, began a pass or ended.
    public static let loop = ChangeSet(rawValue: 1 << 13)
    /// Phrase mode changed, the item's phrases were found, or another phrase, repetition or
    /// gap began.
    public static let phrase = ChangeSet(rawValue: 1 << 14)

    /// The library changed: its contents or its scan's progress (`library` in the event).
    public static let library = ChangeSet(rawValue: 1 << 15)
    /// The output was switched on or off (`outputEnabled` in the snapshot).
    public static let output = ChangeSet(rawValue: 1 << 16)
    /// The crossfade changed (`crossfade` in the snapshot).
    public static let crossfade = ChangeSet(rawValue: 1 << 17)

    /// Wire names, in a fixed order.
    public var names: [String] {
        let all: [(ChangeSet, String)] = [
            (.state, "state"), (.item, "item"), (.position, "position"),
            (.queue, "queue"), (.commands, "commands"), (.modes, "modes"), (.volume, "volume"),
            (.equalizer, "equalizer"), (.replayGain, "replayGain"), (.rate, "rate"),
            (.route, "route"), (.chapter, "chapter"), (.sleepTimer, "sleepTimer"),
            (.loop, "loop"), (.phrase, "phrase"), (.library, "library"), (.output, "output"),
            (.crossfade, "crossfade"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
