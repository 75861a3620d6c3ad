import ControlProtocol
import PlaybackModel
import SystemSupport

/// Why a state file could not be read back.
struct StateFileError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ResumeState {
    /// The file's contents: a line of everything but the items (`header`), then a line per
    /// item (`StateItemLines`).
    func fileBytes() -> [UInt8] {
        let lines = itemLines
        return header(columns: lines.columns, count: lines.count, lineStarts: lines.lineStarts) + lines.bytes
    }

    /// The file's first line, ending with a newline: everything but the items, with the item
    /// lines' `columns` and `count`, and where the current item's line begins among them
    /// (`lineStarts`: where each line begins).
    func header(columns: [StateItemLines.Column], count: Int, lineStarts: [UInt32]) -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("version", .number(Double(Self.formatVersion))),
            ("currentIndex", .optional(currentIndex.map(Double.init))),
            ("position", .number(position)),
            ("state", .string(state.rawValue)),
            ("repeatMode", .string(repeatMode.rawValue)),
            ("shuffleMode", .string(shuffleMode.rawValue)),
            ("disabledCommands", .array(disabledCommands.map(\.rawValue).sorted().map(JSONValue.string))),
        ]
        if singleMode != .off { members.append(("singleMode", .string(singleMode.rawValue))) }
        if consumeMode != .off { members.append(("consumeMode", .string(consumeMode.rawValue))) }
        let priorities = items.indices.filter { items[$0].priority > 0 }
        if !priorities.isEmpty {
            members.append(
                (
                    "priorities",
                    .array(priorities.map { .array([.number(Double($0)), .number(Double(items[$0].priority))]) })
                ))
        }
        if let volume { members.append(("volume", .number(volume))) }
        if let equalizer { members.append(("equalizer", equalizer.json)) }
        if let playbackRate { members.append(("playbackRate", .number(playbackRate))) }
        if let phraseMode { members.append(("phraseMode", phraseMode.json)) }
        if let crossfade { members.append(("crossfade", crossfade.json)) }
        if let outputEnabled { members.append(("outputEnabled", .bool(outputEnabled))) }
        if let shuffledOrder { members.append(("shuffledOrder", .array(shuffledOrder.map { .number(Double($0)) }))) }
        // Where the current item's line begins among the item lines: a long queue shows it
        // while the rest is read.
        if let currentIndex, lineStarts.indices.contains(currentIndex) {
            members.append(("currentItemLine", .number(Double(lineStarts[currentIndex]))))
        }
        members.append(("itemColumns", .array(columns.map { .string($0.name) })))
        members.append(("itemCount", .number(Double(count))))
        var bytes = JSONValue.object(members).serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The items' lines.
    var itemLines: StateItemLines { StateItemLines(items) }

    /// Reads a state file: this version's, or version 1's (one line, the items in it as objects).
    /// Every field is checked, and anything unexpected is an error (the caller sets the file
    /// aside rather than guess).
    init(fileBytes bytes: [UInt8]) throws(StateFileError) {
        self = try Self.read(fileBytes: bytes).state
    }

    /// Reads a state file as `init(fileBytes:)` does, and where its item lines are (in this
    /// version's files): a save copies them while the items are these.
    static func read(fileBytes bytes: [UInt8]) throws(StateFileError) -> (state: Self, layout: StateItemLinesLayout?) {
        let parsed: Result<(Self, StateItemLinesLayout?), StateFileError> = bytes.withUnsafeBufferPointer { whole in
            let headerEnd = whole.firstIndex(of: UInt8(ascii: "\n")) ?? whole.count
            let rest = UnsafeBufferPointer(rebasing: whole[min(headerEnd + 1, whole.count)...])
            do throws(StateFileError) {
                let header: JSONValue
                do throws(JSONParseError) {
                    header = try JSONParser.parse(UnsafeBufferPointer(rebasing: whole[..<headerEnd]))
                } catch {
                    throw StateFileError(error.description)
                }
                let reader = StateReader(object: header, context: "state")
                switch try reader.number("version") {
                case 1:
                    guard rest.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
                        throw StateFileError("version 1 has more than one line")
                    }
                    var items: [QueueItem] = []
                    for (index, value) in try reader.array("items").enumerated() {
                        items.append(try QueueItem(stateJSON: value, id: UInt64(index + 1), index: index))
                    }
                    return .success((try Self(header: header, items: items), nil))
                case Double(Self.formatVersion):
                    let names = try reader.strings("itemColumns")
                    let count = try reader.count("itemCount")
                    let (items, columns, lineStarts) = try StateItemLines.items(rest, columns: names, count: count)
                    let layout = StateItemLinesLayout(
                        columns: columns, count: count, lineStarts: lineStarts, offset: whole.count - rest.count,
                        length: rest.count)
                    return .success((try Self(header: header, items: items), layout))
                default:
                    throw StateFileError("unsupported version \(header["version"]?.serialized ?? "?")")
                }
            } catch {
                return .failure(error)
            }
        }
        let (state, layout) = try parsed.get()
        return (state, layout)
    }

    /// The head of a long queue's state file (version 2, at least `minimumItems` items, one of
    /// them current), from its first line and the current item's line alone (`line(offset)`:
    /// the line that begins `offset` bytes into the item lines, as the header's
    /// `currentItemLine` says; nil when there is none): the state with only its current item
    /// (the queue's one, with the id the whole file gives it), and where it stands in the
    /// whole. Nil for any other file, which is read whole at once (`init(fileBytes:)`), as the
    /// rest of this one is later.
    static func head(
        headerLine: [UInt8], minimumItems: Int, line: (Int) -> [UInt8]?
    ) throws(StateFileError) -> (ResumeState, QueueLoading)? {
        let header: JSONValue
        do throws(JSONParseError) {
            header = try headerLine.withUnsafeBufferPointer { bytes throws(JSONParseError) in
                try JSONParser.parse(bytes)
            }
        } catch {
            throw StateFileError(error.description)
        }
        let reader = StateReader(object: header, context: "state")
        guard try reader.number("version") == Double(Self.formatVersion),
            let index = try reader.optionalNumber("currentIndex").map(Int.init),
            let offset = try reader.optionalNumber("currentItemLine").map(Int.init)
        else { return nil }
        let count = try reader.count("itemCount")
        guard count >= minimumItems, (0..<count).contains(index), let currentLine = line(offset) else { return nil }
        let current = try StateItemLines.item(
            line: currentLine, index: index, columns: try reader.strings("itemColumns"))
        var head = try Self(header: header, items: [current], itemCount: count)
        (head.currentIndex, head.shuffledOrder) = (0, nil)
        return (head, QueueLoading(index: index, count: count))
    }

    /// `head(headerLine:minimumItems:line:)` of a whole file in memory.
    static func head(fileBytes bytes: [UInt8], minimumItems: Int) throws(StateFileError) -> (
        ResumeState, QueueLoading
    )? {
        guard let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return try head(headerLine: Array(bytes[..<headerEnd]), minimumItems: minimumItems) { offset in
            let start = headerEnd + 1 + offset
            guard offset >= 0, start < bytes.count, bytes[start - 1] == UInt8(ascii: "\n") else { return nil }
            return Array(bytes[start..<(bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)])
        }
    }

    /// Everything but the items, from the file's header (version 1: the whole file); the
    /// indices it holds are checked against `itemCount` items (`items` is all of them, or
    /// only the current one of a head).
    private init(header json: JSONValue, items: [QueueItem], itemCount: Int? = nil) throws(StateFileError) {
        let reader = StateReader(object: json, context: "state")
        let itemCount = itemCount ?? items.count
        self.items = items
        currentIndex = try reader.optionalNumber("currentIndex").map(Int.init)
        if let currentIndex, !(0..<itemCount).contains(currentIndex) {
            throw StateFileError("currentIndex \(currentIndex) is outside the \(itemCount) items")
        }
        position = max(0, try reader.number("position"))
        state = try reader.choice("state")
        repeatMode = try reader.choice("repeatMode")
        shuffleMode = try reader.choice("shuffleMode")
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
        singleMode = json["singleMode"] == nil ? .off : try reader.choice("singleMode")
        consumeMode = json["consumeMode"] == nil ? .off : try reader.choice("consumeMode")
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
        try applyPriorities(json["priorities"], itemCount: itemCount)
    }

    /// Gives the items the priorities saved as `[index, priority]` pairs (a head, which holds
    /// only the current item, takes none: the whole queue read next has them).
    private mutating func applyPriorities(_ json: JSONValue?, itemCount: Int) throws(StateFileError) {
        guard let json else { return }
        guard let pairs = json.arrayValue else { throw StateFileError("priorities is not an array") }
        for pair in pairs {
            guard let values = pair.arrayValue?.compactMap(\.numberValue), values.count == 2,
                values.allSatisfy({ $0 == $0.rounded() && $0 >= 0 }), values[0] < Double(itemCount), values[1] <= 255
            else { throw StateFileError("priorities has \(pair.serialized), not [index, priority]") }
            if items.count == itemCount { items[Int(values[0])].priority = UInt8(values[1]) }
        }
    }
}

extension QueueItem {
    /// An item of a version 1 file: an object with the path and the track fields by key.
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
        try self.init(resumed: path, metadata: metadata, chapters: json["chapters"], id: id, context: context())
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
    /// A whole number from 0 up.
    func count(_ key: String) throws(StateFileError) -> Int {
        try read { () throws(WireDecodingError) -> Int in try reader.wholeNumber(key) }
    }
    func array(_ key: String) throws(StateFileError) -> [JSONValue] {
        try read { () throws(WireDecodingError) in try reader.array(key) }
    }
    /// An array of strings.
    func strings(_ key: String) throws(StateFileError) -> [String] {
        try array(key).map { value throws(StateFileError) in
            guard let string = value.stringValue else { throw StateFileError("\(key) has \(value.serialized)") }
            return string
        }
    }
    func choice<Choice: RawRepresentable>(_ key: String) throws(StateFileError) -> Choice
    where Choice.RawValue == String {
        try read { () throws(WireDecodingError) -> Choice in try reader.choice(key) }
    }
}
