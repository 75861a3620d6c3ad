/// ID3v2.2 `PIC` frames, which libmpg123 does not turn into pictures: read from the raw tag
/// (`MPG123_STORE_RAW_ID3`). A frame is a three-letter name and a 24-bit size; a `PIC` body is
/// the text encoding, a three-letter image format (`PNG`, `JPG`), the picture type, a
/// terminated description, and the image bytes.
public enum ID3v22Pictures {
    /// The front cover (type 3), else the first picture; nil when the tag has none or is
    /// unsynchronised (not supported) or malformed. Public for its fuzz target
    /// (`playbackd-fuzz id3v22-pictures`), which feeds it raw bytes.
    public static func cover(rawTag tag: UnsafeBufferPointer<UInt8>) -> EmbeddedPicture? {
        var bytes = Array(tag)[...]
        if bytes.starts(with: Array("ID3".utf8)) {
            guard bytes.count >= 10, bytes[bytes.startIndex + 3] == 2, bytes[bytes.startIndex + 5] & 0x80 == 0
            else { return nil }
            bytes = bytes.dropFirst(10)
        }
        var pictures: [(type: UInt8, picture: EmbeddedPicture)] = []
        while bytes.count >= 6, bytes[bytes.startIndex] != 0 {
            let start = bytes.startIndex
            let name = String(decoding: bytes[start..<start + 3], as: UTF8.self)
            let size = Int(bytes[start + 3]) << 16 | Int(bytes[start + 4]) << 8 | Int(bytes[start + 5])
            guard size <= bytes.count - 6 else { return nil }
            let body = bytes[(start + 6)..<(start + 6 + size)]
            if name == "PIC", let picture = parse(body) { pictures.append(picture) }
            bytes = bytes.dropFirst(6 + size)
        }
        return (pictures.first { $0.type == 3 } ?? pictures.first)?.picture
    }

    private static func parse(_ body: ArraySlice<UInt8>) -> (type: UInt8, picture: EmbeddedPicture)? {
        guard body.count > 5 else { return nil }
        let start = body.startIndex
        let encoding = body[start]
        let format = String(decoding: body[(start + 1)..<(start + 4)], as: UTF8.self).lowercased()
        let type = body[start + 4]
        var rest = body.dropFirst(5)
        // The description ends with one zero byte (Latin-1) or two (UTF-16).
        let wide = encoding == 1 || encoding == 2
        while !rest.isEmpty {
            if wide {
                guard rest.count >= 2 else { return nil }
                let done = rest[rest.startIndex] == 0 && rest[rest.startIndex + 1] == 0
                rest = rest.dropFirst(2)
                if done { break }
            } else {
                let done = rest[rest.startIndex] == 0
                rest = rest.dropFirst()
                if done { break }
            }
        }
        guard !rest.isEmpty else { return nil }
        let mime = format == "png" ? "image/png" : format == "jpg" ? "image/jpeg" : format
        return (type, EmbeddedPicture(mimeType: mime, data: Array(rest)))
    }
}
