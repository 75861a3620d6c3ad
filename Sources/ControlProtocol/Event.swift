import PlaybackModel

/// A pushed line on a subscribed connection: what changed, and the fresh snapshot.
public struct Event: Sendable, Equatable {
    public var changes: ChangeSet
    public var nowPlaying: NowPlaying
    /// The equalizer, when it changed (`changes` has `equalizer`).
    public var equalizer: Equalizer?
    /// The library's status, when it changed (`changes` has `library`).
    public var library: LibraryStatus?
    /// What the step heard: items that became audible, hearings that ended.
    public var hearing: [HearingEvent]

    public init(
        changes: ChangeSet, nowPlaying: NowPlaying, equalizer: Equalizer? = nil, library: LibraryStatus? = nil,
        hearing: [HearingEvent] = []
    ) {
        self.changes = changes
        self.nowPlaying = nowPlaying
        self.equalizer = equalizer
        self.library = library
        self.hearing = hearing
    }

    /// `{"event":"changed","changes":[...],"nowPlaying":{...}}` (and `"equalizer":{...}` when it
    /// changed, `"audible":[...]` and `"heard":[...]` when the step heard so) and a newline, as
    /// UTF-8.
    public var lineBytes: [UInt8] { lineBytes(nowPlaying: nowPlaying.json) }

    /// The line with `json` for the snapshot: `nowPlaying.json`, or the same serialized before.
    public func lineBytes(nowPlaying json: JSONValue) -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("event", .string("changed")),
            ("changes", .array(changes.names.map(JSONValue.string))),
            ("nowPlaying", json),
        ]
        if let equalizer { members.append(("equalizer", equalizer.json)) }
        if let library { members.append(("library", library.json)) }
        for member in ["audible", "heard"] {
            let listed = hearing.filter { $0.member == member }
            if !listed.isEmpty { members.append((member, .array(listed.map(\.json)))) }
        }
        var bytes = JSONValue.object(members).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
