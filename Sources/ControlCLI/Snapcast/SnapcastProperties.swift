import ControlProtocol
import PlaybackModel

/// playbackd's snapshot as Snapcast's stream plugin API has a player's properties
/// (`Plugin.Stream.Player.Properties`, `...GetProperties`): the status, the position now, the
/// modes, the `can*` flags from the command availability as MPRIS has them, and the metadata.
enum SnapcastProperties {
    /// The properties of `nowPlaying` at wall-clock time `now`; nil `nowPlaying`: playbackd is
    /// not there (stopped, nothing can be controlled). `metadata`: include the item's metadata
    /// (Snapcast keeps the last it was sent when a notification has none).
    static func json(
        _ nowPlaying: NowPlaying?, availability: CommandAvailability?, now: Double, metadata: JSONValue?
    ) -> JSONValue {
        guard let nowPlaying, let availability else {
            return .object(
                [("playbackStatus", .string("stopped"))]
                    + ["canGoNext", "canGoPrevious", "canPlay", "canPause", "canSeek", "canControl"].map {
                        ($0, .bool(false))
                    })
        }
        let hasItem = nowPlaying.item != nil
        let can = { (name: CommandName) in availability.isEnabled(name) && hasItem }
        var members: [(String, JSONValue)] = [
            ("playbackStatus", .string(status(nowPlaying.state))),
            ("loopStatus", .string(loopStatus(nowPlaying.repeatMode))),
            ("shuffle", .bool(nowPlaying.shuffleMode != .off)),
            ("volume", .number(nowPlaying.volume.rounded())),
            ("rate", .number(nowPlaying.defaultRate)),
            ("position", .number(position(nowPlaying, now: now))),
            ("canGoNext", .bool(can(.nextTrack))),
            ("canGoPrevious", .bool(can(.previousTrack))),
            ("canPlay", .bool(availability.isEnabled(.play) && nowPlaying.queueCount > 0)),
            ("canPause", .bool(can(.pause))),
            ("canSeek", .bool(can(.changePlaybackPosition))),
            ("canControl", .bool(true)),
        ]
        if let metadata { members.append(("metadata", metadata)) }
        return .object(members)
    }

    /// The item's metadata; `artData` is the cover's bytes, base64 (Snapcast serves it to its
    /// clients over HTTP: a file path means nothing on another machine).
    static func metadata(_ item: QueueItem?, cover: [UInt8]?) -> JSONValue {
        guard let item else { return .object([]) }
        let tags = item.metadata
        var members: [(String, JSONValue)] = [
            ("trackId", .string(String(item.id))), ("title", .string(tags.title)),
            ("duration", .number(tags.duration)), ("url", .string(StreamURL.url(ofItem: item.path))),
        ]
        if let artist = tags.artist { members.append(("artist", .array([.string(artist)]))) }
        if let album = tags.album { members.append(("album", .string(album))) }
        if let albumArtist = tags.albumArtist { members.append(("albumArtist", .array([.string(albumArtist)]))) }
        if let genre = tags.genre { members.append(("genre", .array([.string(genre)]))) }
        if let trackNumber = tags.trackNumber { members.append(("trackNumber", .number(Double(trackNumber)))) }
        if let cover, let path = tags.artworkPath {
            let suffix = path.split(separator: ".").last.map(String.init) ?? "jpg"
            members.append(
                ("artData", .object([("data", .string(Base64.encode(cover))), ("extension", .string(suffix))])))
        }
        return .object(members)
    }

    static func status(_ state: PlaybackState) -> String {
        switch state {
        case .playing: "playing"
        case .paused, .interrupted: "paused"
        case .stopped: "stopped"
        }
    }

    static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "none"
        case .one: "track"
        case .all: "playlist"
        }
    }

    /// The position now (the snapshot's anchor carried forward at its rate), to the millisecond.
    static func position(_ nowPlaying: NowPlaying, now: Double) -> Double {
        (nowPlaying.position(at: now) * 1000).rounded() / 1000
    }
}

/// RFC 4648 base64, for the cover Snapcast takes inline. Written here: the CLI links no
/// Foundation (it is static and starts in about 1 ms), and this is all it needs of one.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var chunk = UInt32(bytes[index]) << 16
            if count > 1 { chunk |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { chunk |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                out.append(
                    position <= count ? alphabet[Int((chunk >> UInt32(18 - position * 6)) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
