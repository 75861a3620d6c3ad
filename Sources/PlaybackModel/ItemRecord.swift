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
        func bit(_ bit: Bit, _ isPresent: Bool) -> UInt32 { isPresent ? bit.mask : 0 }
        let mask =
            bit(.artist, m.artist != nil) | bit(.album, m.album != nil) | bit(.albumArtist, m.albumArtist != nil)
            | bit(.composer, m.composer != nil) | bit(.genre, m.genre != nil)
            | bit(.artworkPath, m.artworkPath != nil) | bit(.year, m.year != nil)
            | bit(.trackNumber, m.trackNumber != nil) | bit(.trackCount, m.trackCount != nil)
            | bit(.discNumber, m.discNumber != nil) | bit(.discCount, m.discCount != nil)
            | bit(.bitsPerSample, m.bitsPerSample != nil)
            | bit(.replayGainTrackGain, m.replayGainTrackGain != nil)
            | bit(.replayGainTrackPeak, m.replayGainTrackPeak != nil)
            | bit(.replayGainAlbumGain, m.replayGainAlbumGain != nil)
            | bit(.replayGainAlbumPeak, m.replayGainAlbumPeak != nil) | bit(.chapters, !m.chapters.isEmpty)
            | bit(.otherArtists, !m.otherArtists.isEmpty) | bit(.file, file != nil)

        // Measured, then written into an array of exactly that size: one allocation a record.
        var size = RecordSize()
        Self.write(to: &size, mask: mask, path: path, metadata: m, file: file)
        bytes = [UInt8](unsafeUninitializedCapacity: size.count) { buffer, count in
            var writer = RecordWriter(buffer)
            Self.write(to: &writer, mask: mask, path: path, metadata: m, file: file)
            count = writer.count
        }
    }

    private static func write(
        to sink: inout some RecordSink, mask: UInt32, path: String, metadata m: TrackMetadata, file: FileIdentity?
    ) {
        sink.fixed32(mask)
        if let file {
            sink.signed(file.size)
            sink.signed(file.modified)
        }
        sink.text(path)
        sink.text(m.title)
        sink.text(m.artist)
        sink.text(m.album)
        sink.text(m.albumArtist)
        sink.text(m.composer)
        sink.text(m.genre)
        sink.text(m.artworkPath)
        sink.integer(m.year)
        sink.integer(m.trackNumber)
        sink.integer(m.trackCount)
        sink.integer(m.discNumber)
        sink.integer(m.discCount)
        sink.integer(m.bitsPerSample)
        sink.double(m.replayGainTrackGain)
        sink.double(m.replayGainTrackPeak)
        sink.double(m.replayGainAlbumGain)
        sink.double(m.replayGainAlbumPeak)
        sink.double(m.duration)
        sink.integer(m.sampleRate)
        sink.integer(m.channels)
        if !m.chapters.isEmpty {
            sink.unsigned(UInt64(m.chapters.count))
            for chapter in m.chapters {
                sink.double(chapter.start)
                sink.double(chapter.end)
                sink.text(chapter.title)
            }
        }
        if !m.otherArtists.isEmpty {
            sink.unsigned(UInt64(m.otherArtists.count))
            for artist in m.otherArtists { sink.text(artist) }
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

/// Where a record's values go: counted (`RecordSize`), then written (`RecordWriter`).
private protocol RecordSink {
    mutating func fixed32(_ value: UInt32)
    mutating func unsigned(_ value: UInt64)
    mutating func double(_ value: Double)
    mutating func text(_ value: String)
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
