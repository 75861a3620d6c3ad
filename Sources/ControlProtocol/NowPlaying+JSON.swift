import PlaybackModel

extension NowPlaying {
    /// The `nowPlaying` object. Cleared now-playing (no item) carries only `state`.
    public var json: JSONValue {
        guard let item else { return .object([("state", .string(state.rawValue))]) }
        var members: [(String, JSONValue)] = [
            ("state", .string(state.rawValue)),
            ("title", .string(item.metadata.title)),
            ("artist", .optional(item.metadata.artist)),
            ("album", .optional(item.metadata.album)),
            ("duration", .number(item.metadata.duration.roundedToMicroseconds)),
            ("elapsed", .number(elapsed.roundedToMicroseconds)),
            ("rate", .number(rate)),
            ("timestamp", .number(timestamp.roundedToMicroseconds)),
        ]
        if let queueIndex { members.append(("queueIndex", .number(Double(queueIndex)))) }
        members += [
            ("queueCount", .number(Double(queueCount))),
            ("assetURL", .string(FileURL.from(path: item.path))),
            ("mediaType", .string("audio")),
            ("isLiveStream", .bool(false)),
        ]
        return .object(members)
    }
}

extension QueueItem {
    /// One entry of the `queue` reply.
    public var json: JSONValue {
        .object([
            ("id", .number(Double(id))),
            ("title", .string(metadata.title)),
            ("artist", .optional(metadata.artist)),
            ("album", .optional(metadata.album)),
            ("duration", .number(metadata.duration.roundedToMicroseconds)),
            ("assetURL", .string(FileURL.from(path: path))),
        ])
    }
}

extension Double {
    /// Six decimals are enough for seconds and keep lines short and stable.
    var roundedToMicroseconds: Double { (self * 1_000_000).rounded() / 1_000_000 }
}
