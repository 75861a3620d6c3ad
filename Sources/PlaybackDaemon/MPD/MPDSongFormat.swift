import ControlProtocol
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The tags playbackd reads that MPD's protocol names (`tagtypes`), each with its value.
enum MPDTag: String, CaseIterable {
    case artist = "Artist"
    case album = "Album"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case track = "Track"
    case genre = "Genre"
    case date = "Date"
    case composer = "Composer"
    case disc = "Disc"

    /// The tag's values for `metadata` (an artist tag with several values gives several lines).
    func values(_ metadata: TrackMetadata) -> [String] {
        switch self {
        case .artist: (metadata.artist.map { [$0] } ?? []) + metadata.otherArtists
        case .album: metadata.album.map { [$0] } ?? []
        case .albumArtist: metadata.albumArtist.map { [$0] } ?? []
        case .title: metadata.title.isEmpty ? [] : [metadata.title]
        case .track: metadata.trackNumber.map { [String($0)] } ?? []
        case .genre: metadata.genre.map { [$0] } ?? []
        case .date: metadata.year.map { [String($0)] } ?? []
        case .composer: metadata.composer.map { [$0] } ?? []
        case .disc: metadata.discNumber.map { [String($0)] } ?? []
        }
    }

    /// The tag named `name`, as clients spell it (case does not matter).
    static func named(_ name: String) -> MPDTag? {
        allCases.first { $0.rawValue.lowercased() == name.lowercased() }
    }
}

/// How queue items and the player's state read in MPD's protocol: `key: value` lines as MPD
/// writes them (src/SongPrint.cxx, src/command/PlayerCommands.cxx).
enum MPDSongFormat {
    /// `file:` and the rest of a queue entry, with its `Pos:`, `Id:` and `Prio:` (when not 0).
    static func lines(_ item: QueueItem, position: Int?, roots: [String], tags: [MPDTag]) -> [String] {
        var lines = lines(path: item.path, item.metadata, modified: item.file?.modified, roots: roots, tags: tags)
        if let position { lines += ["Pos: \(position)", "Id: \(item.id)"] }
        if position != nil && item.priority > 0 { lines.append("Prio: \(item.priority)") }
        return lines
    }

    /// `file:` and the rest of a song (`modified` in milliseconds since the epoch).
    static func lines(
        path: String, _ metadata: TrackMetadata, modified: Int64? = nil, roots: [String], tags: [MPDTag]
    ) -> [String] {
        var lines = ["file: \(uri(path, roots: roots))"]
        if let modified { lines.append("Last-Modified: \(iso8601(milliseconds: modified))") }
        if metadata.sampleRate > 0 {
            lines.append(
                "Format: \(metadata.sampleRate):\(metadata.bitsPerSample.map(String.init) ?? "f"):\(metadata.channels)")
        }
        // A file without a title tag is titled by its name here; MPD's clients show the name
        // themselves when there is no Title.
        let untitled = metadata.title == FileName.stem(path)
        for tag in tags where !(tag == .title && untitled) {
            for value in tag.values(metadata) { lines.append("\(tag.rawValue): \(oneLine(value))") }
        }
        if metadata.duration > 0 {
            lines.append("Time: \(Int(metadata.duration.rounded()))")
            lines.append("duration: \(decimal(metadata.duration))")
        }
        return lines
    }

    /// A path as MPD names it: relative to the library's folder when inside it, else as it is
    /// (an absolute path, a URL).
    static func uri(_ path: String, roots: [String]) -> String {
        for root in roots {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        }
        return path
    }

    /// What `add` and `addid` enqueue for a URI: a URL as it is, an absolute path as it is
    /// (`file://` taken off), anything else under the library's first folder ("" or "/": all of it).
    static func path(ofURI uri: String, roots: [String]) -> String? {
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return uri }
        if uri.hasPrefix("file://") { return String(uri.dropFirst("file://".count)) }
        if uri.hasPrefix("/") && uri != "/" { return uri }
        guard let root = roots.first else { return nil }
        let relative = uri.hasPrefix("/") ? "" : uri
        return relative.isEmpty ? root : root + "/" + relative
    }

    /// The one partition's name (MPD's default partition).
    static let partition = "default"

    /// `status`'s lines for `view`.
    static func status(_ view: PlayerView, playlistVersion: UInt64, updatingJob: Int?, now: Double) -> [String] {
        let playing = view.nowPlaying
        let order = view.resume
        let modes = MPDModes(playing)
        var lines = [
            "volume: \(Int(playing.volume.rounded()))",
            "repeat: \(modes.repeats ? 1 : 0)",
            "random: \(playing.shuffleMode == .off ? 0 : 1)",
            "single: \(MPDModes.word(modes.single))",
            "consume: \(MPDModes.word(playing.consumeMode))",
            "partition: \(partition)",
            "playlist: \(playlistVersion)",
            "playlistlength: \(order.items.count)",
            "mixrampdb: 0",
            "state: \(state(playing.state))",
        ]
        if playing.crossfade.isOn { lines.append("xfade: \(Int(playing.crossfade.seconds.rounded()))") }
        if let index = playing.queueIndex, let item = playing.item {
            lines.append("song: \(index)")
            lines.append("songid: \(item.id)")
            if playing.state != .stopped {
                let elapsed = playing.position(at: now)
                lines.append("time: \(Int(elapsed.rounded())):\(Int(item.metadata.duration.rounded()))")
                lines.append("elapsed: \(decimal(elapsed))")
                if item.metadata.duration > 0 { lines.append("duration: \(decimal(item.metadata.duration))") }
                if item.metadata.sampleRate > 0 {
                    lines.append(
                        "audio: \(item.metadata.sampleRate):\(item.metadata.bitsPerSample.map(String.init) ?? "f"):\(item.metadata.channels)"
                    )
                }
            }
            if playing.shuffleMode == .off, index + 1 < order.items.count {
                lines.append("nextsong: \(index + 1)")
                lines.append("nextsongid: \(order.items[index + 1].id)")
            }
        }
        if let job = updatingJob { lines.append("updating_db: \(job)") }
        if playing.state == .interrupted, let error = playing.deviceError ?? playing.routeChange?.reason.rawValue {
            lines.append("error: \(oneLine(error))")
        }
        return lines
    }

    static func state(_ state: PlaybackState) -> String {
        switch state {
        case .playing: "play"
        case .paused: "pause"
        case .stopped, .interrupted: "stop"
        }
    }

    /// Seconds with three decimals, as MPD writes `elapsed` and `duration`.
    static func decimal(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// A value on one line: a newline would end it early and start a line of its own.
    static func oneLine(_ value: String) -> String {
        value.contains("\n") || value.contains("\r")
            ? String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }) : value
    }

    static func iso8601(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
