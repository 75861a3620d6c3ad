import PlaybackModel

/// The crossfade as JSON: the snapshot's `crossfade` member and the resume state's.
extension Crossfade {
    /// `{"seconds":…,"mode":…,"skipSeconds":…}`.
    public var json: JSONValue {
        .object([
            ("seconds", .number(seconds)), ("mode", .string(mode.rawValue)), ("skipSeconds", .number(skipSeconds)),
        ])
    }

    /// Reads what `json` writes; the lengths are range-checked.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "crossfade")
        self.init(
            seconds: try reader.number("seconds"), mode: try reader.choice("mode"),
            skipSeconds: try reader.number("skipSeconds"))
        guard Self.secondsRange.contains(seconds), Self.skipSecondsRange.contains(skipSeconds) else {
            throw WireDecodingError("crossfade: seconds or skipSeconds out of range")
        }
    }
}
