import PlaybackModel

extension NowPlaying {
    /// The `nowPlaying` object. Cleared now-playing (no item) carries only `state` and the
    /// play modes.
    public var json: JSONValue {
        let modes: [(String, JSONValue)] = [
            ("repeatMode", .string(repeatMode.rawValue)), ("shuffleMode", .string(shuffleMode.rawValue)),
        ]
        guard let item else { return .object([("state", .string(state.rawValue))] + modes) }
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
        return .object(members + modes + item.metadata.tagMembers)
    }
}

extension QueueItem {
    /// One entry of the `queue` reply.
    public var json: JSONValue {
        .object(
            [
                ("id", .number(Double(id))),
                ("title", .string(metadata.title)),
                ("artist", .optional(metadata.artist)),
                ("album", .optional(metadata.album)),
                ("duration", .number(metadata.duration.roundedToMicroseconds)),
                ("assetURL", .string(FileURL.from(path: path))),
            ] + metadata.tagMembers)
    }
}

extension TrackMetadata {
    /// The optional tag fields and the artwork, each only when present.
    var tagMembers: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        let texts = [("albumArtist", albumArtist), ("composer", composer), ("genre", genre)]
        for (key, value) in texts { if let value { members.append((key, .string(value))) } }
        let numbers = [
            ("year", year), ("trackNumber", trackNumber), ("trackCount", trackCount), ("discNumber", discNumber),
            ("discCount", discCount),
        ]
        for (key, value) in numbers { if let value { members.append((key, .number(Double(value)))) } }
        if let artworkPath { members.append(("artworkURL", .string(FileURL.from(path: artworkPath)))) }
        return members
    }
}

extension Double {
    /// Six decimals are enough for seconds and keep lines short and stable.
    var roundedToMicroseconds: Double { (self * 1_000_000).rounded() / 1_000_000 }
}
