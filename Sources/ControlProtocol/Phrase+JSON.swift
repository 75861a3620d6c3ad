import PlaybackModel

/// Phrase mode's settings, on the wire (`nowPlaying.phraseMode`) and in the resume state.
extension PhraseMode {
    public var json: JSONValue {
        .object([
            ("enabled", .bool(isEnabled)), ("repeats", .number(Double(repeats))), ("gapFactor", .number(gapFactor)),
            ("gapExtra", .number(gapExtra)),
        ])
    }

    /// Reads what `json` wrote; values out of their ranges are refused.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "phraseMode")
        guard let enabled = json["enabled"]?.boolValue else {
            throw WireDecodingError("phraseMode: 'enabled' is missing or not a boolean")
        }
        self.init(
            isEnabled: enabled, repeats: try reader.wholeNumber("repeats"), gapFactor: try reader.number("gapFactor"),
            gapExtra: try reader.number("gapExtra"))
        guard Self.repeatsRange.contains(repeats), Self.gapFactorRange.contains(gapFactor),
            Self.gapExtraRange.contains(gapExtra)
        else { throw WireDecodingError("phraseMode: a value is out of range: \(json.serialized)") }
    }
}

/// The `phrases` reply: each phrase's `start` and `end` (seconds), and whether the analysis
/// has finished.
extension PhraseList {
    public var json: JSONValue {
        .object([
            (
                "phrases",
                .array(
                    phrases.map {
                        .object([
                            ("start", .number($0.start.roundedToMicroseconds)),
                            ("end", .number($0.end.roundedToMicroseconds)),
                        ])
                    })
            ), ("complete", .bool(isComplete)),
        ])
    }

    /// Reads a reply written by `json`.
    public init(json: JSONValue) throws(WireDecodingError) {
        guard let entries = json["phrases"]?.arrayValue, let complete = json["complete"]?.boolValue else {
            throw WireDecodingError("phrases: 'phrases' or 'complete' is missing")
        }
        var phrases: [Phrase] = []
        for entry in entries {
            let reader = WireReader(object: entry, context: "phrase")
            phrases.append(Phrase(start: try reader.number("start"), end: try reader.number("end")))
        }
        self.init(phrases: phrases, isComplete: complete)
    }
}
