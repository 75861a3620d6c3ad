import ControlProtocol
import PlaybackModel
import SystemSupport

/// How replies read on a terminal. Pure functions of the reply, so tests compare exact text.
public enum HumanOutput {
    /// Text for a successful reply to `verb`; empty for commands that need no answer.
    public static func render(verb: String, reply: JSONValue, now: Double) throws(WireDecodingError) -> String {
        switch verb {
        case "queue": try queue(reply)
        case "commands", "enable", "disable": commands(reply)
        case "enqueue": enqueued(reply)
        case _ where reply["equalizer"] != nil: try equalizer(reply)
        case "seek", "skip-forward", "skip-backward":
            reply["position"]?.numberValue.map { "position \(TimeText.format($0))\n" } ?? ""
        default: ""
        }
    }

    /// The widest a status line gets.
    public static let columns = 80

    /// `[playing] Artist - Title`, the album, then `elapsed / duration  (index/count)` and the
    /// skip intervals when `commands` (the `commands` reply) has them, and the latest route
    /// change when there was one; each line fits 80 columns.
    public static func status(
        _ nowPlaying: NowPlaying, commands: JSONValue? = nil, now: Double, style: TerminalStyle = .plain
    ) -> String {
        let state = nowPlaying.state.rawValue
        let tag = "[\(state)]"
        let route =
            nowPlaying.routeChange.map {
                DisplayWidth.fit(RenderedPiece.singleLine(routeLine($0)), columns: columns) + "\n"
            } ?? ""
        guard let item = nowPlaying.item else { return style.stateTag(state) + "\n" + route }
        var lines = [tag + " " + track(item.metadata)]
        if let album = item.metadata.album { lines.append(album) }
        let elapsed = nowPlaying.position(at: now)
        var timing = "\(TimeText.format(elapsed)) / \(TimeText.format(item.metadata.duration))"
        if let index = nowPlaying.queueIndex { timing += "  (\(index + 1)/\(nowPlaying.queueCount))" }
        if let commands, let skips = skipIntervals(commands) { timing += "  skip \(skips)" }
        if nowPlaying.repeatMode != .off { timing += "  repeat \(nowPlaying.repeatMode.rawValue)" }
        if nowPlaying.shuffleMode == .items { timing += "  shuffle" }
        lines.append(timing)
        lines = lines.map { DisplayWidth.fit(RenderedPiece.singleLine($0), columns: columns) }
        lines[0] = style.stateTag(state) + String(lines[0].dropFirst(tag.count))
        return lines.concatenated(separator: "\n") + "\n" + route
    }

    /// `route: Headphones went away` or `route: USB DAC appeared`: the latest route change.
    static func routeLine(_ change: RouteChange) -> String {
        switch change.reason {
        case .oldDeviceUnavailable: "route: \(change.device) went away"
        case .newDeviceAvailable: "route: \(change.device) appeared"
        }
    }

    /// `-15s/+30s` from the enabled skip commands of a `commands` reply; nil when both are disabled.
    static func skipIntervals(_ reply: JSONValue) -> String? {
        func interval(_ name: CommandName, sign: String) -> String? {
            guard
                let entry = reply["commands"]?.arrayValue?.first(where: { $0["command"]?.stringValue == name.rawValue }
                ),
                entry["enabled"]?.boolValue == true,
                let seconds = entry["preferredIntervals"]?.arrayValue?.first?.numberValue
            else { return nil }
            return "\(sign)\(JSONValue.number(seconds).serialized)s"
        }
        let parts = [interval(.skipBackward, sign: "-"), interval(.skipForward, sign: "+")].compactMap { $0 }
        return parts.isEmpty ? nil : parts.concatenated(separator: "/")
    }

    /// `Artist - Title`, or the title alone.
    static func track(_ metadata: TrackMetadata) -> String {
        metadata.artist.map { "\($0) - \(metadata.title)" } ?? metadata.title
    }

    /// The `queue` reply's page, one line per item; nil when an item cannot be read.
    static func queue(_ reply: JSONValue) throws(WireDecodingError) -> String {
        let current = reply["currentIndex"]?.numberValue.map(Int.init)
        var items: [QueueItem] = []
        for json in reply["items"]?.arrayValue ?? [] { items.append(try QueueItem(json: json)) }
        guard !items.isEmpty else { return "(queue is empty)\n" }
        let offset = Int(reply["offset"]?.numberValue ?? 0)
        let count = Int(reply["count"]?.numberValue ?? Double(items.count))
        let width = String(offset + items.count).count
        let more = count - offset - items.count
        let footer = more > 0 ? "(\(more) more; playbackctl --json queue pages with offset and limit)\n" : ""
        return items.enumerated().map { position, item in
            let index = offset + position
            let marker = index == current ? ">" : " "
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            let duration = TimeText.format(item.metadata.duration)
            return "\(marker)\(padded). \(track(item.metadata)) (\(duration))\n"
        }.joined() + footer
    }

    static func commands(_ reply: JSONValue) -> String {
        (reply["commands"]?.arrayValue ?? []).map { entry in
            let name = entry["command"]?.stringValue ?? "?"
            let enabled = entry["enabled"]?.boolValue == true ? "enabled" : "disabled"
            var line = name.padding(to: 24) + enabled
            if let intervals = entry["preferredIntervals"]?.arrayValue {
                line +=
                    "  "
                    + intervals.compactMap(\.numberValue).map { "\(JSONValue.number($0).serialized)s" }
                    .joined(separator: ", ")
            }
            return line + "\n"
        }.joined()
    }

    static func enqueued(_ reply: JSONValue) -> String {
        let added = reply["added"]?.arrayValue?.count ?? 0
        return "added \(added) item\(added == 1 ? "" : "s"), queue has \(Int(reply["queueCount"]?.numberValue ?? 0))\n"
    }

    /// One line per rejected item of an `enqueue` reply (printed on stderr).
    public static func rejections(_ reply: JSONValue) -> String {
        (reply["rejected"]?.arrayValue ?? []).map { entry in
            "rejected \(entry["path"]?.stringValue ?? "?"): \(entry["reason"]?.stringValue ?? "?")\n"
        }.joined()
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
