import ControlProtocol

/// How replies read on a terminal. Pure functions of the reply, so tests compare exact text.
public enum HumanOutput {
    /// Text for a successful reply to `verb`; empty for commands that need no answer.
    public static func render(verb: String, reply: JSONValue, now: Double) -> String {
        switch verb {
        case "status": reply["nowPlaying"].map { status($0, now: now) } ?? ""
        case "queue": queue(reply)
        case "commands", "enable", "disable": commands(reply)
        case "enqueue": enqueued(reply)
        case "seek", "skip-forward", "skip-backward":
            reply["position"]?.numberValue.map { "position \(TimeText.format($0))\n" } ?? ""
        default: ""
        }
    }

    /// `[playing] Artist - Title`, the album, and `elapsed / duration (index/count)`.
    public static func status(_ nowPlaying: JSONValue, now: Double) -> String {
        let state = nowPlaying["state"]?.stringValue ?? "unknown"
        guard let title = nowPlaying["title"]?.stringValue else { return "[\(state)]\n" }
        var lines = ["[\(state)] " + track(nowPlaying, title: title)]
        if let album = nowPlaying["album"]?.stringValue { lines.append(album) }
        let elapsed = position(nowPlaying, now: now)
        var timing = "\(TimeText.format(elapsed)) / \(TimeText.format(nowPlaying["duration"]?.numberValue ?? 0))"
        if let index = nowPlaying["queueIndex"]?.numberValue, let count = nowPlaying["queueCount"]?.numberValue {
            timing += "  (\(Int(index) + 1)/\(Int(count)))"
        }
        lines.append(timing)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The position at `now`, extrapolated from `(elapsed, rate, timestamp)`.
    public static func position(_ nowPlaying: JSONValue, now: Double) -> Double {
        let elapsed = nowPlaying["elapsed"]?.numberValue ?? 0
        let rate = nowPlaying["rate"]?.numberValue ?? 0
        let timestamp = nowPlaying["timestamp"]?.numberValue ?? now
        let duration = nowPlaying["duration"]?.numberValue ?? .infinity
        return min(duration, elapsed + rate * max(0, now - timestamp))
    }

    static func track(_ object: JSONValue, title: String) -> String {
        if let artist = object["artist"]?.stringValue { return "\(artist) - \(title)" }
        return title
    }

    static func queue(_ reply: JSONValue) -> String {
        let current = reply["currentIndex"]?.numberValue.map(Int.init)
        let items = reply["items"]?.arrayValue ?? []
        guard !items.isEmpty else { return "(queue is empty)\n" }
        let width = String(items.count).count
        return items.enumerated().map { index, item in
            let marker = index == current ? ">" : " "
            let number = String(index + 1)
            let padded = String(repeating: " ", count: width - number.count) + number
            let title = item["title"]?.stringValue ?? "?"
            let duration = TimeText.format(item["duration"]?.numberValue ?? 0)
            return "\(marker)\(padded). \(track(item, title: title)) (\(duration))\n"
        }.joined()
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
