import PlaybackModel

/// A pushed line on a subscribed connection: what changed, and the fresh snapshot.
public struct Event: Sendable, Equatable {
    public var changes: ChangeSet
    public var nowPlaying: NowPlaying
    /// The equalizer, when it changed (`changes` has `equalizer`).
    public var equalizer: Equalizer?
    /// The library's status, when it changed (`changes` has `library`).
    public var library: LibraryStatus?

    public init(changes: ChangeSet, nowPlaying: NowPlaying, equalizer: Equalizer? = nil, library: LibraryStatus? = nil)
    {
        self.changes = changes
        self.nowPlaying = nowPlaying
        self.equalizer = equalizer
        self.library = library
    }

    /// `{"event":"changed","changes":[...],"nowPlaying":{...}}` (and `"equalizer":{...}` when it
    /// changed) and a newline, as UTF-8.
    public var lineBytes: [UInt8] {
        var members: [(String, JSONValue)] = [
            ("event", .string("changed")),
            ("changes", .array(changes.names.map(JSONValue.string))),
            ("nowPlaying", nowPlaying.json),
        ]
        if let equalizer { members.append(("equalizer", equalizer.json)) }
        if let library { members.append(("library", library.json)) }
        var bytes = JSONValue.object(members).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
