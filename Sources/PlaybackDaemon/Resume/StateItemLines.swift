import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The queue's items as the state file holds them: one line each, a JSON array of the item's
/// path and then its values in the order of `columns` (null for a value it has not; nulls at
/// the end left out). The columns are named once, in the file's first line: a 100,000-item
/// queue writes no key 100,000 times, and reads without matching one.
struct StateItemLines: Sendable, Equatable {
    /// What a column holds: a track field (its index in `TrackField.all`) or the chapters.
    enum Column: Equatable, Sendable {
        case field(Int)
        case chapters

        var name: String {
            switch self {
            case .field(let index): TrackField.all[index].stateKey
            case .chapters: "chapters"
            }
        }

        init?(name: String) {
            if name == "chapters" {
                self = .chapters
            } else if let index = TrackField.stateKeys.firstIndex(of: name) {
                self = .field(index)
            } else {
                return nil
            }
        }
    }

    /// The fields some item has, in `TrackField.all`'s order, then the chapters if any item
    /// has some.
    var columns: [Column]
    var count: Int
    /// The lines, each ending with a newline.
    var bytes: [UInt8]
    /// Where each line begins in `bytes`.
    var lineStarts: [UInt32]

    init(_ items: [QueueItem]) {
        let fields = TrackField.all
        var used = [Bool](repeating: false, count: fields.count)
        var anyChapters = false
        for item in items {
            let metadata = item.metadata
            for index in fields.indices where !used[index] && fields[index].value(in: metadata) != nil {
                used[index] = true
            }
            anyChapters = anyChapters || !metadata.chapters.isEmpty
        }
        columns = fields.indices.filter { used[$0] }.map(Column.field) + (anyChapters ? [.chapters] : [])
        count = items.count
        bytes = []
        bytes.reserveCapacity(items.count * 160)
        lineStarts = []
        lineStarts.reserveCapacity(items.count)
        var values: [JSONValue] = []
        for item in items {
            lineStarts.append(UInt32(clamping: bytes.count))
            values.removeAll(keepingCapacity: true)
            values.append(.string(item.path))
            let metadata = item.metadata
            for column in columns {
                switch column {
                case .field(let index):
                    let field = fields[index]
                    values.append(field.value(in: metadata).map { field.json($0, onWire: false) } ?? .null)
                case .chapters:
                    values.append(metadata.chapters.isEmpty ? .null : metadata.chapters.json)
                }
            }
            while values.last == .null { values.removeLast() }
            JSONValue.array(values).write(to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Reads `count` item lines written under `columns`. Item `n` gets id `n + 1`. A long
    /// list is read in runs on the processors at once (`ParallelRuns`): each line stands alone.
    /// Also gives the columns read and where each line begins.
    static func items(
        _ lines: UnsafeBufferPointer<UInt8>, columns names: [String], count: Int
    ) throws(StateFileError) -> (items: [QueueItem], columns: [Column], lineStarts: [UInt32]) {
        let columns = try Self.columns(names)
        let ranges = lineRanges(lines)
        let lineStarts = ranges.map { UInt32(clamping: $0.lowerBound) }
        guard ranges.count <= count else { throw StateFileError("more item lines than itemCount \(count)") }
        guard ranges.count == count else {
            throw StateFileError("\(ranges.count) item lines where itemCount says \(count)")
        }
        guard count > 0 else { return ([], columns, []) }
        let failures = Locked<[(index: Int, error: StateFileError)]>([])
        let done = Locked<[Range<Int>]>([])
        // Each piece reads with arrays of its own, and only the columns' storage, not the fields
        // (their strings): the reference counts of what two threads share would bounce between
        // the processors on every value. Each puts its items in place in the one array: joining
        // the pieces' arrays would retain every string once more, and release it again.
        let items = [QueueItem](unsafeUninitializedCapacity: count) { buffer, initialized in
            let destination = UncheckedSendable(buffer.baseAddress!)
            let lines = UncheckedSendable(lines)
            ParallelRuns.forEachPiece(of: count, minimum: 4_096) { piece in
                let reader = LineReader(columns.map { $0 })
                var end = piece.lowerBound
                for index in piece {
                    do throws(StateFileError) {
                        let line = UnsafeBufferPointer(rebasing: lines.value[ranges[index]])
                        (destination.value + index).initialize(to: try reader.item(line, index: index))
                        end = index + 1
                    } catch {
                        failures.withLock { $0.append((index, error)) }
                        break
                    }
                }
                done.withLock { $0.append(piece.lowerBound..<end) }
            }
            if failures.withLock({ $0.isEmpty }) {
                initialized = count
            } else {
                for piece in done.withLock({ $0 }) {
                    (destination.value + piece.lowerBound).deinitialize(count: piece.count)
                }
                initialized = 0
            }
        }
        if let first = failures.withLock({ $0.min { $0.index < $1.index } }) { throw first.error }
        return (items, columns, lineStarts)
    }

    /// Reads one item's `line` (the item at `index`: id `index + 1`, as `items` gives it):
    /// what a long queue shows of itself while the rest is read.
    static func item(line: [UInt8], index: Int, columns names: [String]) throws(StateFileError) -> QueueItem {
        let reader = LineReader(try Self.columns(names))
        return try line.withUnsafeBufferPointer { bytes throws(StateFileError) in try reader.item(bytes, index: index) }
    }

    /// The columns `names` name, each once.
    private static func columns(_ names: [String]) throws(StateFileError) -> [Column] {
        var columns: [Column] = []
        for name in names {
            guard let column = Column(name: name), !columns.contains(column) else {
                throw StateFileError(
                    "itemColumns: '\(name)' is \(Column(name: name) == nil ? "no field" : "given twice")")
            }
            columns.append(column)
        }
        return columns
    }

    /// Where each line is (without its newline); the last line may lack one.
    private static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard let base = bytes.baseAddress else { return [] }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(bytes.count / 64)
        var start = 0
        while start < bytes.count {
            let end = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer(base).distance(to: $0) }
            ranges.append(start..<(end ?? bytes.count))
            start = (end ?? bytes.count) + 1
        }
        return ranges
    }

}

/// Reads item lines under the columns it was made with.
private struct LineReader {
    let columns: [StateItemLines.Column]
    /// The storage of each column's field; nil for the chapters.
    let storages: [TrackField.Storage?]
    let required = TrackField.requiredMask

    init(_ columns: [StateItemLines.Column]) {
        self.columns = columns
        storages = columns.map { column in
            guard case .field(let index) = column else { return nil }
            return TrackField.all[index].storage
        }
    }

    func item(_ line: UnsafeBufferPointer<UInt8>, index: Int) throws(StateFileError) -> QueueItem {
        if let item = plainItem(line, index: index) { return item }
        return try parsedItem(line, index: index)
    }

    /// The item of a line of plain values (strings without escapes, numbers and nulls: nearly
    /// every line), read in place into its record (`QueueItem(id:path:values:)`), with no
    /// `JSONValue`, `TrackMetadata` or `String` made of it: these took three quarters of a
    /// restart. Nil for any other line, and for a line with a problem, which `parsedItem` reads
    /// again to say what it is.
    private func plainItem(_ line: UnsafeBufferPointer<UInt8>, index: Int) -> QueueItem? {
        withUnsafeTemporaryAllocation(of: RawFieldValue?.self, capacity: TrackField.all.count) { values in
            values.initialize(repeating: nil)
            var path: UnsafeBufferPointer<UInt8>?
            var position = 0
            let isPlain = JSONParser.readFlatArray(line) { scalar in
                defer { position += 1 }
                guard position > 0 else {
                    guard case .string(let bytes) = scalar else { return false }
                    path = bytes
                    return true
                }
                guard position <= columns.count else { return false }
                switch (columns[position - 1], scalar) {
                case (_, .null): break
                case (.field(let field), .string(let bytes)): values[field] = .text(bytes)
                case (.field(let field), .number(let number)): values[field] = .number(number)
                case (.chapters, _): return false  // read by `parsedItem`
                }
                return true
            }
            guard isPlain, let path else { return nil }
            return QueueItem(id: UInt64(index + 1), path: path, values: UnsafeBufferPointer(values))
        }
    }

    /// The item of any line, parsed as JSON, or what is wrong with it.
    private func parsedItem(_ line: UnsafeBufferPointer<UInt8>, index: Int) throws(StateFileError) -> QueueItem {
        // Made only for an error: a state file holds thousands of items.
        func context() -> String { "item \(index)" }
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser.parse(line)
        } catch {
            throw StateFileError("\(context()): \(error)")
        }
        guard case .array(let values) = json, case .string(let path)? = values.first, values.count <= columns.count + 1
        else {
            throw StateFileError("\(context()): not an array of a path and at most \(columns.count) values")
        }
        var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        var found: UInt64 = 0
        var chapters: JSONValue?
        for position in 1..<values.count {
            let value = values[position]
            guard let storage = storages[position - 1] else {
                if value != .null { chapters = value }
                continue
            }
            guard let decoded = storage.decode(value, onWire: false) else {
                if value == .null { continue }
                throw StateFileError("\(context()): '\(columns[position - 1].name)' is not valid")
            }
            storage.set(decoded, in: &metadata)
            if case .field(let field) = columns[position - 1] { found |= 1 << field }
        }
        if found & required != required,
            let missing = TrackField.all.indices.first(where: { required & ~found & 1 << $0 != 0 })
        {
            throw StateFileError("\(context()): '\(TrackField.all[missing].stateKey)' is missing")
        }
        return try QueueItem(
            resumed: path, metadata: consume metadata, chapters: chapters, id: UInt64(index + 1), context: context())
    }
}

extension QueueItem {
    /// An item read back from the state file, checked as a probe would have made it: an
    /// absolute path or a stream's URL, a usable format, chapters within the duration.
    init(
        resumed path: String, metadata: consuming TrackMetadata, chapters: JSONValue?, id: UInt64,
        context: @autoclosure () -> String
    ) throws(StateFileError) {
        guard QueueItem.isQueueable(path: path) else {
            throw StateFileError("\(context()): path is neither absolute nor an http(s) URL")
        }
        guard metadata.hasPlayableFormat else {
            throw StateFileError("\(context()): bad format")
        }
        if let chapters {
            do {
                let read = try [Chapter](json: chapters)
                metadata.chapters = Chapter.normalized(read.map { ($0.start, $0.title) }, duration: metadata.duration)
            } catch {
                throw StateFileError("\(context()): \(error.description)")
            }
        }
        self.init(id: id, path: path, metadata: metadata)
    }
}
