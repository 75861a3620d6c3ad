import PlaybackModel

/// A pushed line on a subscribed connection: what changed, and the fresh snapshot.
public struct Event: Sendable, Equatable {
    public var changes: ChangeSet
    public var nowPlaying: NowPlaying

    public init(changes: ChangeSet, nowPlaying: NowPlaying) {
        self.changes = changes
        self.nowPlaying = nowPlaying
    }

    /// `{"event":"changed","changes":[...],"nowPlaying":{...}}` and a newline, as UTF-8.
    public var lineBytes: [UInt8] {
        var bytes = JSONValue.object([
            ("event", .string("changed")),
            ("changes", .array(changes.names.map(JSONValue.string))),
            ("nowPlaying", nowPlaying.json),
        ]).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
