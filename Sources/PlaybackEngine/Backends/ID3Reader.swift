import CMPG123
import PlaybackModel

/// Reads title, artist and album from the ID3v2 (preferred) or ID3v1 tags libmpg123 parsed.
enum ID3Reader {
    static func metadata(
        _ handle: OpaquePointer, path: String, format: AudioFormat,
        frames: Int?
    ) -> TrackMetadata {
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        _ = mpg123_id3(handle, &v1, &v2)
        let tag2 = v2?.pointee
        let tag1 = v1?.pointee
        let title = text(tag2?.title) ?? tag1.flatMap { latin1($0.title) } ?? fileStem(path)
        return TrackMetadata(
            title: title,
            artist: text(tag2?.artist) ?? tag1.flatMap { latin1($0.artist) },
            album: text(tag2?.album) ?? tag1.flatMap { latin1($0.album) },
            duration: Double(frames ?? 0) / Double(format.sampleRate),
            sampleRate: format.sampleRate,
            channels: format.channels)
    }

    /// libmpg123 converts ID3v2 text of every encoding to UTF-8.
    private static func text(_ string: UnsafeMutablePointer<mpg123_string>?) -> String? {
        guard let s = string?.pointee, let p = s.p, s.fill > 0 else { return nil }
        let value = String(
            decoding: UnsafeRawBufferPointer(start: p, count: s.fill - 1)
                .prefix { $0 != 0 }, as: UTF8.self)
        return nonEmpty(value)
    }

    /// ID3v1 fields are fixed-size, NUL- or space-padded Latin-1.
    private static func latin1<T>(_ field: T) -> String? {
        withUnsafeBytes(of: field) { bytes in
            let scalars = bytes.prefix { $0 != 0 }.map { Character(Unicode.Scalar($0)) }
            return nonEmpty(String(scalars))
        }
    }

    private static func nonEmpty(_ s: String) -> String? {
        let trimmed = s.trimmingTrailingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The file name without directory and extension.
    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\u{0}" { s = s.dropLast() }
        return String(s)
    }
}
