/// A queue item's path, track fields and file identity as one block of bytes: what a queue of
/// 100,000 items holds of each (one allocation of about the size of the text it holds), where a
/// `TrackMetadata` of separate strings and optionals took about 400 bytes more. The values are
/// decoded when they are read (`QueueItem.metadata`, `QueueItem.path`).
///
/// The layout, written and read only here, follows `TrackField.all`: a presence mask
/// (`UInt32`: a bit for each field of the table, by its place there, and three more); the file
/// identity when present; the path; then each field present, in the table's order, as its
/// storage keeps it; then the chapters and the other artists when present. Text is a length and
/// UTF-8, whole numbers zigzag varints, seconds and decimals the 8 bytes of the `Double`. The
/// path and the file identity are read without the rest.
///
/// A record is made from a `TrackMetadata` (a probe, an edit), or straight from the values a
/// state file's line holds (`init?(path:values:)`): a restart of 100,000 items made no
/// `TrackMetadata` and no `String` of them.
struct ItemRecord: Sendable, Equatable {
    private(set) var bytes: [UInt8]

    /// The mask's bits past the fields'.
    fileprivate static let chaptersMask: UInt32 = 1 << 29
    fileprivate static let otherArtistsMask: UInt32 = 1 << 30
    fileprivate static let fileMask: UInt32 = 1 << 31

    /// Each field's storage, by its place in `TrackField.all`. Kept apart from the fields,
    /// which are objects: records made on two threads at once bounced their reference counts
    /// between the processors (a restart took 1.7 times as long).
    static let storages: [TrackField.Storage] = {
        precondition(TrackField.all.count <= 29, "the record's mask has a bit for each field")
        return TrackField.all.map(\.storage)
    }()

    init(path: String, metadata: TrackMetadata, file: FileIdentity?) {
        var mask =
            (metadata.chapters.isEmpty ? 0 : Self.chaptersMask)
            | (metadata.otherArtists.isEmpty ? 0 : Self.otherArtistsMask) | (file == nil ? 0 : Self.fileMask)
        for (index, storage) in Self.storages.enumerated() where storage.isPresent(in: metadata) {
            mask |= 1 << UInt32(index)
        }
        // Measured, then written into an array of exactly that size: one allocation a record.
        var size = RecordSize()
        Self.write(to: &size, mask: mask, path: path, metadata: metadata, file: file)
        bytes = [UInt8](unsafeUninitializedCapacity: size.count) { buffer, count in
            var writer = RecordWriter(buffer)
            Self.write(to: &writer, mask: mask, path: path, metadata: metadata, file: file)
            count = writer.count
        }
    }

    private static func write(
        to sink: inout some RecordSink, mask: UInt32, path: String, metadata: TrackMetadata, file: FileIdentity?
    ) {
        sink.fixed32(mask)
        if let file {
            sink.signed(file.size)
            sink.signed(file.modified)
        }
        sink.text(path)
        for (index, storage) in storages.enumerated() where mask & 1 << UInt32(index) != 0 {
            switch storage {
            case .requiredText(let slot): sink.text(slot.get(metadata))
            case .text(let slot), .path(let slot): sink.text(slot.get(metadata))
            case .number(let slot): sink.integer(slot.get(metadata))
            case .requiredNumber(let slot): sink.integer(slot.get(metadata))
            case .seconds(let slot): sink.double(slot.get(metadata))
            case .decimal(let slot): sink.double(slot.get(metadata))
            }
        }
        if mask & chaptersMask != 0 {
            sink.unsigned(UInt64(metadata.chapters.count))
            for chapter in metadata.chapters {
                sink.double(chapter.start)
                sink.double(chapter.end)
                sink.text(chapter.title)
            }
        }
        if mask & otherArtistsMask != 0 {
            sink.unsigned(UInt64(metadata.otherArtists.count))
            for artist in metadata.otherArtists { sink.text(artist) }
        }
    }

    /// A record of `path` and `values` (a value for each field of `TrackField.all`, by its
    /// place there; nil where the field has none), with no chapters, other artists or file
    /// identity. Nil when a value is not of its field's kind (a whole number for a number, a
    /// finite one for seconds), a required field has none, or the format is not one the engine
    /// plays (`TrackMetadata.hasPlayableFormat`, of the numbers alone: no string is made).
    init?(path: UnsafeBufferPointer<UInt8>, values: UnsafeBufferPointer<RawFieldValue?>) {
        var mask: UInt32 = 0
        var size = RecordSize()
        size.fixed32(0)
        size.text(path)
        var numbers = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        for (index, storage) in Self.storages.enumerated() {
            switch (storage, values[index]) {
            case (.requiredText, .text(let text)?), (.text, .text(let text)?), (.path, .text(let text)?):
                size.text(text)
            case (.number(let slot), .number(let number)?):
                guard let whole = TrackField.Storage.wholeNumber(number) else { return nil }
                slot.set(&numbers, whole)
                size.integer(whole)
            case (.requiredNumber(let slot), .number(let number)?):
                guard let whole = TrackField.Storage.wholeNumber(number) else { return nil }
                slot.set(&numbers, whole)
                size.integer(whole)
            case (.seconds(let slot), .number(let number)?):
                guard number.isFinite else { return nil }
                slot.set(&numbers, number)
                size.double(number)
            case (.decimal(let slot), .number(let number)?):
                guard number.isFinite else { return nil }
                slot.set(&numbers, number)
                size.double(number)
            case (.seconds, nil):  // no duration: 0, as a probe gives a live stream
                size.double(0)
            case (.text, nil), (.path, nil), (.number, nil), (.decimal, nil): continue
            default: return nil
            }
            mask |= 1 << UInt32(index)
        }
        guard numbers.hasPlayableFormat else { return nil }
        bytes = [UInt8](unsafeUninitializedCapacity: size.count) { buffer, count in
            var writer = RecordWriter(buffer)
            writer.fixed32(mask)
            writer.text(path)
            for (index, storage) in Self.storages.enumerated() where mask & 1 << UInt32(index) != 0 {
                switch (storage, values[index]) {
                case (_, .text(let text)?): writer.text(text)
                case (.number, .number(let number)?), (.requiredNumber, .number(let number)?):
                    writer.integer(TrackField.Storage.wholeNumber(number)!)
                case (_, .number(let number)?): writer.double(number)
                case (_, nil): writer.double(0)
                }
            }
            count = writer.count
        }
    }

    /// The path alone.
    var path: String {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = RecordReader(buffer)
            _ = reader.file(mask: reader.fixed32())
            return reader.text()
        }
    }

    /// The file identity alone.
    var file: FileIdentity? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = RecordReader(buffer)
            return reader.file(mask: reader.fixed32())
        }
    }

    /// Everything the record holds.
    var decoded: (path: String, metadata: TrackMetadata, file: FileIdentity?) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = RecordReader(buffer)
            let mask = reader.fixed32()
            let file = reader.file(mask: mask)
            let path = reader.text()
            var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
            for (index, storage) in Self.storages.enumerated() where mask & 1 << UInt32(index) != 0 {
                switch storage {
                case .requiredText(let slot): slot.set(&metadata, reader.text())
                case .text(let slot), .path(let slot): slot.set(&metadata, reader.text())
                case .number(let slot): slot.set(&metadata, reader.integer())
                case .requiredNumber(let slot): slot.set(&metadata, reader.integer())
                case .seconds(let slot): slot.set(&metadata, reader.double())
                case .decimal(let slot): slot.set(&metadata, reader.double())
                }
            }
            if mask & Self.chaptersMask != 0 {
                metadata.chapters = (0..<Int(reader.unsigned())).map { _ in
                    Chapter(start: reader.double(), end: reader.double(), title: reader.text())
                }
            }
            if mask & Self.otherArtistsMask != 0 {
                metadata.otherArtists = (0..<Int(reader.unsigned())).map { _ in reader.text() }
            }
            return (path, metadata, file)
        }
    }
}

/// A field's value as a reader of a file found it, before it is checked against the field:
/// text as its UTF-8 bytes (valid UTF-8, borrowed), or a number.
public enum RawFieldValue {
    case text(UnsafeBufferPointer<UInt8>)
    case number(Double)
}

extension TrackField.Storage {
    /// Whether `metadata` has a value here: always for a required field and for seconds
    /// (0 for a live stream), for the others when it is not nil.
    fileprivate func isPresent(in metadata: TrackMetadata) -> Bool {
        switch self {
        case .requiredText, .requiredNumber, .seconds: true
        case .text(let slot), .path(let slot): slot.get(metadata) != nil
        case .number(let slot): slot.get(metadata) != nil
        case .decimal(let slot): slot.get(metadata) != nil
        }
    }
}

/// Where a record's values go: counted (`RecordSize`), then written (`RecordWriter`).
private protocol RecordSink {
    mutating func fixed32(_ value: UInt32)
    mutating func unsigned(_ value: UInt64)
    mutating func double(_ value: Double)
    mutating func text(_ value: String)
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>)
}

extension RecordSink {
    /// Zigzag: small negative numbers stay short.
    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func integer(_ value: Int) { signed(Int64(value)) }
    /// An optional value: nothing when absent (the mask says which are there).
    mutating func text(_ value: String?) { if let value { text(value) } }
    mutating func integer(_ value: Int?) { if let value { signed(Int64(value)) } }
    mutating func double(_ value: Double?) { if let value { double(value) } }
}

/// Counts a record's bytes.
private struct RecordSize: RecordSink {
    private(set) var count = 0

    mutating func fixed32(_ value: UInt32) { count += 4 }
    mutating func unsigned(_ value: UInt64) { count += (64 - (value | 1).leadingZeroBitCount + 6) / 7 }
    mutating func double(_ value: Double) { count += 8 }
    mutating func text(_ value: String) {
        let length = value.utf8.count
        unsigned(UInt64(length))
        count += length
    }
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        unsigned(UInt64(utf8.count))
        count += utf8.count
    }
}

/// Writes a record's values into its array, which `RecordSize` measured.
private struct RecordWriter: RecordSink {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// Traps rather than write past the array (a measure that differs from the write).
    private func reserve(_ bytes: Int) { precondition(count + bytes <= buffer.count, "a record outgrew its size") }

    mutating func fixed32(_ value: UInt32) {
        reserve(4)
        for index in 0..<4 { buffer[count + index] = UInt8(truncatingIfNeeded: value >> UInt32(index * 8)) }
        count += 4
    }

    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            reserve(1)
            buffer[count] = UInt8(truncatingIfNeeded: rest) | 0x80
            count += 1
            rest >>= 7
        }
        reserve(1)
        buffer[count] = UInt8(rest)
        count += 1
    }

    /// -0 is written as 0: the two are equal values, and items compare by their bytes.
    mutating func double(_ value: Double) {
        reserve(8)
        let bits = (value == 0 ? 0 : value).bitPattern
        for index in 0..<8 { buffer[count + index] = UInt8(truncatingIfNeeded: bits >> UInt64(index * 8)) }
        count += 8
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in text(utf8) }
    }

    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        unsigned(UInt64(utf8.count))
        reserve(utf8.count)
        _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + utf8.count)]).initialize(from: utf8)
        count += utf8.count
    }
}

/// Reads a record's values in the order they were written.
private struct RecordReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func fixed32() -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(buffer[offset + index]) << UInt32(index * 8) }
        offset += 4
        return value
    }

    mutating func unsigned() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() -> Int64 {
        let value = unsigned()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func integer() -> Int { Int(signed()) }

    /// The file identity, which follows the mask when the mask says it is there.
    mutating func file(mask: UInt32) -> FileIdentity? {
        mask & ItemRecord.fileMask != 0 ? FileIdentity(size: signed(), modified: signed()) : nil
    }

    mutating func double() -> Double {
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(buffer[offset + index]) << UInt64(index * 8) }
        offset += 8
        return Double(bitPattern: bits)
    }

    mutating func text() -> String {
        let count = Int(unsigned())
        defer { offset += count }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<(offset + count)]), as: UTF8.self)
    }
}
