/// A queue item's path, track fields and file identity as one block of bytes: what a queue of
/// 100,000 items holds of each (one allocation of about the size of the text it holds), where a
/// `TrackMetadata` of separate strings and optionals took about 400 bytes more. The values are
/// decoded when they are read (`QueueItem.metadata`, `QueueItem.path`).
///
/// The layout, written and read only here: a presence mask (`UInt32`, a bit for each optional
/// value below); the file identity when present; the path; the title; the optional fields that
/// are present; the duration, the sample rate and the channels; the chapters and the other
/// artists when present. The path and the file identity are read without the rest. Text is a length and UTF-8, integers zigzag varints, seconds and decimals the 8
/// bytes of the `Double`.
///
/// Written by hand rather than by walking `TrackField.all`: the table's closures and shared
/// objects made reading a 100,000-item state file 1.7 times as long (the reference counts of
/// the objects bounced between the two threads that read it). `ItemRecordTests` sets every
/// field of the table and checks that it comes back, so a field added there and not here fails.
struct ItemRecord: Sendable, Equatable {
    private(set) var bytes: [UInt8]

    private enum Bit: Int {
        case artist, album, albumArtist, composer, genre, artworkPath
        case year, trackNumber, trackCount, discNumber, discCount, bitsPerSample
        case replayGainTrackGain, replayGainTrackPeak, replayGainAlbumGain, replayGainAlbumPeak
        case chapters, otherArtists, file

        var mask: UInt32 { 1 << UInt32(rawValue) }
    }

    fileprivate static let fileMask = Bit.file.mask

    init(path: String, metadata: TrackMetadata, file: FileIdentity?) {
        let m = metadata
        var mask: UInt32 = 0
        func mark(_ bit: Bit, _ present: Bool) { if present { mask |= bit.mask } }
        mark(.artist, m.artist != nil)
        mark(.album, m.album != nil)
        mark(.albumArtist, m.albumArtist != nil)
        mark(.composer, m.composer != nil)
        mark(.genre, m.genre != nil)
        mark(.artworkPath, m.artworkPath != nil)
        mark(.year, m.year != nil)
        mark(.trackNumber, m.trackNumber != nil)
        mark(.trackCount, m.trackCount != nil)
        mark(.discNumber, m.discNumber != nil)
        mark(.discCount, m.discCount != nil)
        mark(.bitsPerSample, m.bitsPerSample != nil)
        mark(.replayGainTrackGain, m.replayGainTrackGain != nil)
        mark(.replayGainTrackPeak, m.replayGainTrackPeak != nil)
        mark(.replayGainAlbumGain, m.replayGainAlbumGain != nil)
        mark(.replayGainAlbumPeak, m.replayGainAlbumPeak != nil)
        mark(.chapters, !m.chapters.isEmpty)
        mark(.otherArtists, !m.otherArtists.isEmpty)
        mark(.file, file != nil)

        // Enough for any record: each value's bytes, and a varint's most (10) for each length
        // and number, 8 for each double.
        func text(_ value: String?) -> Int { (value?.utf8.count ?? 0) + RecordWriter.varintBytes }
        var bound = 4 + text(path) + text(m.title) + text(m.artist) + text(m.album) + text(m.albumArtist)
        bound += text(m.composer) + text(m.genre) + text(m.artworkPath)
        bound += 9 * RecordWriter.varintBytes + 5 * 8 + 3 * RecordWriter.varintBytes
        for chapter in m.chapters { bound += 16 + text(chapter.title) }
        for artist in m.otherArtists { bound += text(artist) }

        bytes = RecordWriter.bytes(bound: bound) { writer in
            writer.fixed32(mask)
            if let file {
                writer.signed(file.size)
                writer.signed(file.modified)
            }
            writer.text(path)
            writer.text(m.title)
            for text in [m.artist, m.album, m.albumArtist, m.composer, m.genre, m.artworkPath] {
                if let text { writer.text(text) }
            }
            for number in [m.year, m.trackNumber, m.trackCount, m.discNumber, m.discCount, m.bitsPerSample] {
                if let number { writer.signed(Int64(number)) }
            }
            for decimal in [m.replayGainTrackGain, m.replayGainTrackPeak, m.replayGainAlbumGain, m.replayGainAlbumPeak]
            {
                if let decimal { writer.double(decimal) }
            }
            writer.double(m.duration)
            writer.signed(Int64(m.sampleRate))
            writer.signed(Int64(m.channels))
            if !m.chapters.isEmpty {
                writer.unsigned(UInt64(m.chapters.count))
                for chapter in m.chapters {
                    writer.double(chapter.start)
                    writer.double(chapter.end)
                    writer.text(chapter.title)
                }
            }
            if !m.otherArtists.isEmpty {
                writer.unsigned(UInt64(m.otherArtists.count))
                for artist in m.otherArtists { writer.text(artist) }
            }
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
            func has(_ bit: Bit) -> Bool { mask & bit.mask != 0 }
            let file = reader.file(mask: mask)
            let path = reader.text()
            var metadata = TrackMetadata(title: reader.text(), duration: 0, sampleRate: 0, channels: 0)
            if has(.artist) { metadata.artist = reader.text() }
            if has(.album) { metadata.album = reader.text() }
            if has(.albumArtist) { metadata.albumArtist = reader.text() }
            if has(.composer) { metadata.composer = reader.text() }
            if has(.genre) { metadata.genre = reader.text() }
            if has(.artworkPath) { metadata.artworkPath = reader.text() }
            if has(.year) { metadata.year = reader.integer() }
            if has(.trackNumber) { metadata.trackNumber = reader.integer() }
            if has(.trackCount) { metadata.trackCount = reader.integer() }
            if has(.discNumber) { metadata.discNumber = reader.integer() }
            if has(.discCount) { metadata.discCount = reader.integer() }
            if has(.bitsPerSample) { metadata.bitsPerSample = reader.integer() }
            if has(.replayGainTrackGain) { metadata.replayGainTrackGain = reader.double() }
            if has(.replayGainTrackPeak) { metadata.replayGainTrackPeak = reader.double() }
            if has(.replayGainAlbumGain) { metadata.replayGainAlbumGain = reader.double() }
            if has(.replayGainAlbumPeak) { metadata.replayGainAlbumPeak = reader.double() }
            metadata.duration = reader.double()
            metadata.sampleRate = reader.integer()
            metadata.channels = reader.integer()
            if has(.chapters) {
                metadata.chapters = (0..<Int(reader.unsigned())).map { _ in
                    Chapter(start: reader.double(), end: reader.double(), title: reader.text())
                }
            }
            if has(.otherArtists) { metadata.otherArtists = (0..<Int(reader.unsigned())).map { _ in reader.text() } }
            return (path, metadata, file)
        }
    }
}

/// Writes a record's values into a buffer of a size known to be enough (on the stack when
/// small), then gives them as an array of exactly their size: one allocation a record.
private struct RecordWriter {
    /// The most bytes a varint takes.
    static let varintBytes = 10
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    static func bytes(bound: Int, _ write: (inout RecordWriter) -> Void) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            var writer = RecordWriter(buffer: buffer)
            write(&writer)
            let written = UnsafeBufferPointer(rebasing: buffer[..<writer.count])
            return [UInt8](unsafeUninitializedCapacity: written.count) { array, count in
                _ = array.initialize(from: written)
                count = written.count
            }
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// Traps rather than write past the buffer (the bound is wrong).
    private func reserve(_ bytes: Int) { precondition(count + bytes <= buffer.count, "a record outgrew its bound") }

    mutating func fixed32(_ value: UInt32) {
        reserve(4)
        for index in 0..<4 { buffer[count + index] = UInt8(truncatingIfNeeded: value >> UInt32(index * 8)) }
        count += 4
    }

    mutating func unsigned(_ value: UInt64) {
        reserve(Self.varintBytes)
        var rest = value
        while rest >= 0x80 {
            buffer[count] = UInt8(truncatingIfNeeded: rest) | 0x80
            count += 1
            rest >>= 7
        }
        buffer[count] = UInt8(rest)
        count += 1
    }

    /// Zigzag: small negative numbers stay short.
    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    /// -0 is written as 0: the two are equal values, and items compare by their bytes.
    mutating func double(_ value: Double) {
        reserve(8)
        let bits = (value == 0 ? 0 : value).bitPattern
        for index in 0..<8 { buffer[count + index] = UInt8(truncatingIfNeeded: bits >> UInt64(index * 8)) }
        count += 8
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            reserve(utf8.count)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + utf8.count)]).initialize(from: utf8)
            count += utf8.count
        }
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
