import PlaybackModel

/// The `nowPlaying` object, written by the daemon and read by `playbackctl` and the tests:
/// one typed value on both sides of the wire.
extension NowPlaying {
    /// The `nowPlaying` object. Cleared now-playing (no item) carries only `state` and the
    /// play modes.
    public var json: JSONValue {
        let modes: [(String, JSONValue)] = [
            ("repeatMode", .string(repeatMode.rawValue)), ("shuffleMode", .string(shuffleMode.rawValue)),
            ("volume", .number(volume)),
        ]
        guard let item else { return .object([("state", .string(state.rawValue))] + modes) }
        var members: [(String, JSONValue)] = [("state", .string(state.rawValue))]
        members += item.metadata.wireMembers(head: true)
        members += [
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
        if let replayGain {
            members.append(
                (
                    "replayGain",
                    .object([("mode", .string(replayGain.source.rawValue)), ("gain", .number(replayGain.gain))])
                ))
        }
        return .object(
            members + modes + item.metadata.wireMembers(head: false) + [("itemID", .number(Double(item.id)))])
    }

    /// Reads a `nowPlaying` object written by `json`.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "nowPlaying")
        let state: PlaybackState = try reader.choice("state")
        let repeatMode: RepeatMode = try reader.choice("repeatMode")
        let shuffleMode: ShuffleMode = try reader.choice("shuffleMode")
        let volume = try reader.optionalNumber("volume") ?? 100
        // Cleared now-playing carries none of the item's members; one of them alone is an error.
        guard json["title"] != nil || json["assetURL"] != nil || json["itemID"] != nil else {
            self.init(
                state: state, item: nil, elapsed: 0, rate: 0, timestamp: 0, queueIndex: nil, queueCount: 0,
                repeatMode: repeatMode, shuffleMode: shuffleMode, volume: volume)
            return
        }
        let item = QueueItem(
            id: try reader.wholeNumber("itemID"), path: try reader.path("assetURL"),
            metadata: try TrackMetadata.decoding(json, onWire: true, context: "nowPlaying"))
        var replayGain: AppliedReplayGain?
        if let applied = json["replayGain"] {
            let gainReader = WireReader(object: applied, context: "nowPlaying.replayGain")
            replayGain = AppliedReplayGain(source: try gainReader.choice("mode"), gain: try gainReader.number("gain"))
        }
        self.init(
            state: state, item: item, elapsed: try reader.number("elapsed"), rate: try reader.number("rate"),
            timestamp: try reader.number("timestamp"), queueIndex: try reader.optionalWholeNumber("queueIndex"),
            queueCount: try reader.wholeNumber("queueCount"), repeatMode: repeatMode, shuffleMode: shuffleMode,
            volume: volume, replayGain: replayGain)
    }
}

extension QueueItem {
    /// One entry of the `queue` reply.
    public var json: JSONValue {
        .object(
            [("id", .number(Double(id)))] + metadata.wireMembers(head: true)
                + [("assetURL", .string(FileURL.from(path: path)))] + metadata.wireMembers(head: false))
    }

    /// Reads an entry of the `queue` reply.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "queue item")
        self.init(
            id: try reader.wholeNumber("id"), path: try reader.path("assetURL"),
            metadata: try TrackMetadata.decoding(json, onWire: true, context: "queue item"))
    }
}
