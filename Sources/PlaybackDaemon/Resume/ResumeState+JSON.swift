import ControlProtocol
import PlaybackModel
import SystemSupport

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
        if let volume { members.append(("volume", .number(volume))) }
        if let equalizer { members.append(("equalizer", equalizer.json)) }
        if let playbackRate { members.append(("playbackRate", .number(playbackRate))) }
        if let phraseMode { members.append(("phraseMode", phraseMode.json)) }
        if let crossfade { members.append(("crossfade", crossfade.json)) }
        if let outputEnabled { members.append(("outputEnabled", .bool(outputEnabled))) }
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
        let reader = StateReader(object: json, context: "state")
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
        let itemCount = items.count
        shuffledOrder = try json["shuffledOrder"].map { value throws(StateFileError) in
            guard let array = value.arrayValue else { throw StateFileError("shuffledOrder is not an array") }
            // Indices into the items; anything else (a fuzzer found 6.7e46, which trapped the
            // conversion to Int) makes the file unusable rather than the daemon crash.
            return try array.map { entry throws(StateFileError) in
                guard let index = entry.numberValue, index >= 0, index == index.rounded(),
                    index < Double(itemCount)
                else { throw StateFileError("shuffledOrder has \(entry.serialized), not an index of the items") }
                return Int(index)
            }
        }
        var disabled = Set<CommandName>()
        for value in try reader.array("disabledCommands") {
            guard let name = value.stringValue.flatMap(CommandName.init(rawValue:)) else {
                throw StateFileError("disabledCommands has an unknown command \(value.serialized)")
            }
            disabled.insert(name)
        }
        disabledCommands = disabled
        volume = json["volume"] == nil ? nil : try reader.number("volume")
        if let volume, !(0...100).contains(volume) { throw StateFileError("volume \(volume) is outside 0 - 100") }
        playbackRate = json["playbackRate"] == nil ? nil : try reader.number("playbackRate")
        if let playbackRate, !CommandCatalog.playbackRateRange.contains(playbackRate) {
            throw StateFileError("playbackRate \(playbackRate) is outside 0.5 - 3")
        }
        if let value = json["outputEnabled"] {
            guard let enabled = value.boolValue else { throw StateFileError("outputEnabled is not a boolean") }
            outputEnabled = enabled
        }
        do throws(WireDecodingError) {
            equalizer = try json["equalizer"].map { value throws(WireDecodingError) in try Equalizer(json: value) }
            phraseMode = try json["phraseMode"].map { value throws(WireDecodingError) in try PhraseMode(json: value) }
            crossfade = try json["crossfade"].map { value throws(WireDecodingError) in try Crossfade(json: value) }
        } catch {
            throw StateFileError(error.description)
        }
    }
}

extension QueueItem {
    fileprivate var stateJSON: JSONValue {
        var members = [("path", JSONValue.string(path))] + metadata.stateMembers
        if !metadata.chapters.isEmpty { members.append(("chapters", metadata.chapters.json)) }
        return .object(members)
    }

    fileprivate init(stateJSON json: JSONValue, id: UInt64, index: Int) throws(StateFileError) {
        // Made only for an error: a state file holds thousands of items.
        func context() -> String { "item \(index)" }
        guard let path = json["path"]?.stringValue else {
            throw StateFileError("\(context()): 'path' is missing or not a string")
        }
        let metadata: TrackMetadata
        do {
            metadata = try TrackMetadata.decoding(json, onWire: false, context: context())
        } catch {
            throw StateFileError(error.description)
        }
        guard path.hasPrefix(bytes: "/") || StreamURL.isStream(path) else {
            throw StateFileError("\(context()): path is neither absolute nor an http(s) URL")
        }
        guard metadata.sampleRate > 0, (1...8).contains(metadata.channels), metadata.duration >= 0 else {
            throw StateFileError("\(context()): bad format")
        }
        var withChapters = metadata
        if let chapters = json["chapters"] {
            do {
                let read = try [Chapter](json: chapters)
                withChapters.chapters = Chapter.normalized(
                    read.map { ($0.start, $0.title) }, duration: metadata.duration)
            } catch {
                throw StateFileError("\(context()): \(error.description)")
            }
        }
        self.init(id: id, path: path, metadata: withChapters)
    }
}

/// The resume state's reader: the wire's typed reader, with its errors as `StateFileError`.
private struct StateReader {
    let reader: WireReader
    init(object: JSONValue, context: String) { reader = WireReader(object: object, context: context) }

    private func read<Value>(_ body: () throws(WireDecodingError) -> Value) throws(StateFileError) -> Value {
        do { return try body() } catch { throw StateFileError(error.description) }
    }

    func number(_ key: String) throws(StateFileError) -> Double {
        try read { () throws(WireDecodingError) in try reader.number(key) }
    }
    func optionalNumber(_ key: String) throws(StateFileError) -> Double? {
        try read { () throws(WireDecodingError) -> Double? in
            try reader.optionalWholeNumber(key).map { (n: Int) in Double(n) }
        }
    }
    func array(_ key: String) throws(StateFileError) -> [JSONValue] {
        try read { () throws(WireDecodingError) in try reader.array(key) }
    }
    func choice<Choice: RawRepresentable>(_ key: String) throws(StateFileError) -> Choice
    where Choice.RawValue == String {
        try read { () throws(WireDecodingError) -> Choice in try reader.choice(key) }
    }
}
