import ControlProtocol
import PlaybackModel

/// Why a state file could not be read back.
struct StateFileError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ResumeState {
    /// The file's contents. `items` is the serialized `items` array when the caller has it
    /// (`itemsBytes`), since a queue can be large and changes less often than the position.
    func fileBytes(items: [UInt8]? = nil) -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("version", .number(Double(Self.formatVersion))),
            ("currentIndex", .optional(currentIndex.map(Double.init))),
            ("position", .number(position)),
            ("state", .string(state.rawValue)),
            ("repeatMode", .string(repeatMode.rawValue)),
            ("shuffleMode", .string(shuffleMode.rawValue)),
            ("disabledCommands", .array(disabledCommands.map(\.rawValue).sorted().map(JSONValue.string))),
        ]
        if let shuffledOrder { members.append(("shuffledOrder", .array(shuffledOrder.map { .number(Double($0)) }))) }
        var bytes = JSONValue.object(members).serializedBytes
        bytes.removeLast()  // the closing brace: the items follow
        bytes += Array(#","items":"#.utf8)
        bytes += items ?? itemsBytes
        bytes += Array("}\n".utf8)
        return bytes
    }

    /// The `items` array, serialized.
    var itemsBytes: [UInt8] { JSONValue.array(items.map(\.stateJSON)).serializedBytes }

    /// Reads a state file's JSON; every field is checked, and anything unexpected is an error
    /// (the caller sets the file aside rather than guess).
    init(json: JSONValue) throws(StateFileError) {
        let reader = FieldReader(object: json, context: "state")
        guard try reader.number("version") == Double(Self.formatVersion) else {
            throw StateFileError("unsupported version \(json["version"]?.serialized ?? "?")")
        }
        let itemValues = try reader.array("items")
        items = []
        items.reserveCapacity(itemValues.count)
        for (index, value) in itemValues.enumerated() {
            items.append(try QueueItem(stateJSON: value, id: UInt64(index + 1), index: index))
        }
        currentIndex = try reader.optionalNumber("currentIndex").map(Int.init)
        if let currentIndex, !items.indices.contains(currentIndex) {
            throw StateFileError("currentIndex \(currentIndex) is outside the \(items.count) items")
        }
        position = max(0, try reader.number("position"))
        state = try reader.choice("state")
        repeatMode = try reader.choice("repeatMode")
        shuffleMode = try reader.choice("shuffleMode")
        shuffledOrder = try json["shuffledOrder"].map { value throws(StateFileError) in
            guard let array = value.arrayValue else { throw StateFileError("shuffledOrder is not an array") }
            return array.compactMap { $0.numberValue.map(Int.init) }
        }
        var disabled = Set<CommandName>()
        for value in try reader.array("disabledCommands") {
            guard let name = value.stringValue.flatMap(CommandName.init(rawValue:)) else {
                throw StateFileError("disabledCommands has an unknown command \(value.serialized)")
            }
            disabled.insert(name)
        }
        disabledCommands = disabled
    }
}

extension QueueItem {
    fileprivate var stateJSON: JSONValue {
        let m = metadata
        var members: [(String, JSONValue)] = [
            ("path", .string(path)), ("title", .string(m.title)), ("duration", .number(m.duration)),
            ("sampleRate", .number(Double(m.sampleRate))), ("channels", .number(Double(m.channels))),
        ]
        let texts = [
            ("artist", m.artist), ("album", m.album), ("albumArtist", m.albumArtist), ("composer", m.composer),
            ("genre", m.genre), ("artworkPath", m.artworkPath),
        ]
        for (key, value) in texts { if let value { members.append((key, .string(value))) } }
        let numbers = [
            ("year", m.year), ("trackNumber", m.trackNumber), ("trackCount", m.trackCount),
            ("discNumber", m.discNumber), ("discCount", m.discCount),
        ]
        for (key, value) in numbers { if let value { members.append((key, .number(Double(value)))) } }
        return .object(members)
    }

    fileprivate init(stateJSON json: JSONValue, id: UInt64, index: Int) throws(StateFileError) {
        let reader = FieldReader(object: json, context: "item \(index)")
        let path = try reader.string("path")
        guard path.hasPrefix("/") else { throw StateFileError("item \(index): path is not absolute") }
        let sampleRate = Int(try reader.number("sampleRate"))
        let channels = Int(try reader.number("channels"))
        guard sampleRate > 0, (1...8).contains(channels) else { throw StateFileError("item \(index): bad format") }
        var metadata = TrackMetadata(
            title: try reader.string("title"), artist: json["artist"]?.stringValue, album: json["album"]?.stringValue,
            duration: max(0, try reader.number("duration")), sampleRate: sampleRate, channels: channels)
        metadata.albumArtist = json["albumArtist"]?.stringValue
        metadata.composer = json["composer"]?.stringValue
        metadata.genre = json["genre"]?.stringValue
        metadata.artworkPath = json["artworkPath"]?.stringValue
        metadata.year = json["year"]?.numberValue.map(Int.init)
        metadata.trackNumber = json["trackNumber"]?.numberValue.map(Int.init)
        metadata.trackCount = json["trackCount"]?.numberValue.map(Int.init)
        metadata.discNumber = json["discNumber"]?.numberValue.map(Int.init)
        metadata.discCount = json["discCount"]?.numberValue.map(Int.init)
        self.init(id: id, path: path, metadata: metadata)
    }
}

/// Typed access to an object's fields, with errors that name the field.
private struct FieldReader {
    let object: JSONValue
    let context: String

    private func missing(_ key: String, _ type: String) -> StateFileError {
        StateFileError("\(context): '\(key)' is missing or not \(type)")
    }

    func number(_ key: String) throws(StateFileError) -> Double {
        guard let value = object[key]?.numberValue, value.isFinite else { throw missing(key, "a number") }
        return value
    }

    func optionalNumber(_ key: String) throws(StateFileError) -> Double? {
        guard let value = object[key], value != .null else { return nil }
        guard let number = value.numberValue, number >= 0 else { throw missing(key, "a number") }
        return number
    }

    func string(_ key: String) throws(StateFileError) -> String {
        guard let value = object[key]?.stringValue else { throw missing(key, "a string") }
        return value
    }

    func array(_ key: String) throws(StateFileError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw missing(key, "an array") }
        return value
    }

    func choice<Choice: RawRepresentable>(_ key: String) throws(StateFileError) -> Choice
    where Choice.RawValue == String {
        guard let value = object[key]?.stringValue.flatMap(Choice.init(rawValue:)) else {
            throw missing(key, "a known value")
        }
        return value
    }
}
