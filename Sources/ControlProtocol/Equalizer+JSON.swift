import PlaybackModel

/// The equalizer as JSON: the `equalizer` reply and event member, and the resume state's.
extension Equalizer {
    /// `{"enabled":…,"preamp":…,"globalGain":…,"preset":…,"bands":[…]}`.
    public var json: JSONValue {
        .object([
            ("enabled", .bool(isEnabled)),
            ("preamp", .number(preamp)),
            ("globalGain", .number(globalGain)),
            ("preset", .optional(preset)),
            ("bands", .array(bands.map(\.json))),
        ])
    }

    /// Reads what `json` writes; every value is range-checked.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "equalizer")
        guard let enabled = json["enabled"]?.boolValue else {
            throw WireDecodingError("equalizer: 'enabled' is missing or not a boolean")
        }
        var bands: [EQBand] = []
        for (index, value) in try reader.array("bands").enumerated() {
            bands.append(try EQBand(json: value, context: "equalizer band \(index + 1)"))
        }
        self.init(
            isEnabled: enabled, bands: bands, globalGain: try reader.number("globalGain"),
            preamp: try reader.number("preamp"), preset: json["preset"]?.stringValue)
        if let problem { throw WireDecodingError("equalizer: \(problem)") }
    }
}

extension EQBand {
    /// `{"type":…,"frequency":…,"bandwidth":…,"q":…,"gain":…,"bypass":…}`; `q` only when set.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type.rawValue)),
            ("frequency", .number(frequency)),
            ("bandwidth", .number(bandwidth)),
        ]
        if let q { members.append(("q", .number(q))) }
        members += [("gain", .number(gain)), ("bypass", .bool(bypass))]
        return .object(members)
    }

    init(json: JSONValue, context: String) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: context)
        guard let bypass = json["bypass"]?.boolValue else {
            throw WireDecodingError("\(context): 'bypass' is missing or not a boolean")
        }
        self.init(
            type: try reader.choice("type"), frequency: try reader.number("frequency"),
            bandwidth: try reader.number("bandwidth"), q: try reader.optionalNumber("q"),
            gain: try reader.number("gain"), bypass: bypass)
    }
}
