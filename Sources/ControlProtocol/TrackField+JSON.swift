import PlaybackModel

/// The JSON form of track fields, for the wire (snapshots, queue items) and the resume state.
extension TrackField {
    /// The value as JSON. On the wire a path is a `file://` URL and seconds are rounded to
    /// microseconds (short, stable lines); in the resume state both are kept as they are.
    public func json(_ value: TrackFieldValue, onWire: Bool) -> JSONValue {
        switch (value, storage) {
        case (.text(let path), .path): .string(onWire ? FileURL.from(path: path) : path)
        case (.text(let text), _): .string(text)
        case (.number(let number), _): .number(Double(number))
        case (.seconds(let seconds), _): .number(onWire ? seconds.roundedToMicroseconds : seconds)
        case (.decimal(let value), _): .number(value)
        }
    }

    /// Reads the value from JSON written by `json(_:onWire:)`; nil for null, for a value of
    /// the wrong type, and for a number that is not finite (or not whole, for a whole number).
    public func decode(_ json: JSONValue, onWire: Bool) -> TrackFieldValue? { storage.decode(json, onWire: onWire) }
}

extension TrackField.Storage {
    /// `TrackField.decode(_:onWire:)`, for a reader of many values that keeps only the storage
    /// of each column (a field's strings stay untouched, and uncounted, on every value).
    public func decode(_ json: JSONValue, onWire: Bool) -> TrackFieldValue? {
        switch (self, json) {
        case (.path, .string(let text)): (onWire ? FileURL.path(fromURL: text) : text).map(TrackFieldValue.text)
        case (.requiredText, .string(let text)), (.text, .string(let text)): .text(text)
        case (.number, .number(let number)), (.requiredNumber, .number(let number)):
            Self.wholeNumber(number).map(TrackFieldValue.number)
        case (.seconds, .number(let seconds)): seconds.isFinite ? .seconds(seconds) : nil
        case (.decimal, .number(let value)): value.isFinite ? .decimal(value) : nil
        default: nil
        }
    }
}

extension TrackMetadata {
    /// The wire members of the fields sent always (`head`: title, artist, album, duration;
    /// null when unknown) or only when known (the rest).
    public func wireMembers(head: Bool) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        appendWireMembers(head: head, to: &members)
        return members
    }

    /// Appends what `wireMembers(head:)` returns to `members`.
    public func appendWireMembers(head: Bool, to members: inout [(String, JSONValue)]) {
        for field in TrackField.all where field.isAlwaysSent == head {
            if let value = field.value(in: self) {
                members.append((field.key, field.json(value, onWire: true)))
            } else if head {
                members.append((field.key, .null))
            }
        }
    }

    /// Every field of `object`, under its wire key (or, for the resume state, its state key).
    /// Throws when a required field is missing or any field has the wrong type; `context`
    /// (built only then) says where. Members that are no field are ignored; of a key given twice,
    /// the first counts.
    public static func decoding(
        _ object: JSONValue, onWire: Bool, context: @autoclosure () -> String
    ) throws(WireDecodingError) -> TrackMetadata {
        var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        // One pass over the members (a state file holds thousands of items). Written by this
        // program, they come in the order of `all`, so each key is looked for from where the
        // last one was found, then from the start. (No dictionary: building one costs
        // `playbackctl status` a runtime conformance lookup, 85,000 instructions.)
        let fields = TrackField.all
        let keys = onWire ? TrackField.wireKeys : TrackField.stateKeys
        var next = 0
        var found: UInt64 = 0
        for (key, json) in object.objectMembers ?? [] {
            guard let index = TrackField.index(of: key, in: keys, from: next) else { continue }
            next = index + 1
            guard found & 1 << index == 0 else { continue }
            found |= 1 << index
            let value = fields[index].decode(json, onWire: onWire)
            if value == nil && (TrackField.requiredMask & 1 << index != 0 || json != .null) {
                throw WireDecodingError("\(context()): '\(key)' is \(json == .null ? "missing" : "not valid")")
            }
            fields[index].set(value, in: &metadata)
        }
        if found & TrackField.requiredMask != TrackField.requiredMask,
            let missing = fields.indices.first(where: { TrackField.requiredMask & ~found & 1 << $0 != 0 })
        {
            throw WireDecodingError(
                "\(context()): '\(onWire ? fields[missing].key : fields[missing].stateKey)' is missing")
        }
        return metadata
    }
}

extension TrackField {
    /// The keys of `all`, in order: on the wire and in the resume state.
    static let wireKeys = all.map(\.key)
    public static let stateKeys = all.map(\.stateKey)
    /// Where `key` is in `keys`, looking from `start` to the end, then from the beginning.
    /// Lengths are compared first: most keys passed differ in length, and that is cheaper to see.
    static func index(of key: String, in keys: [String], from start: Int) -> Int? {
        let length = key.utf8.count
        func isKey(_ index: Int) -> Bool { keys[index].utf8.count == length && keys[index] == key }
        var index = start
        while index < keys.count {
            if isKey(index) { return index }
            index += 1
        }
        index = 0
        while index < min(start, keys.count) {
            if isKey(index) { return index }
            index += 1
        }
        return nil
    }
    /// A bit for each required field, by its place in `all` (there are fewer than 64 fields).
    public static let requiredMask = all.indices.reduce(UInt64(0)) { mask, index in
        all[index].isRequired ? mask | 1 << index : mask
    }
}

/// Why a snapshot, a queue item or a state file's item could not be read.
public struct WireDecodingError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Double {
    /// Six decimals are enough for seconds and keep lines short and stable.
    var roundedToMicroseconds: Double { (self * 1_000_000).rounded() / 1_000_000 }
}
