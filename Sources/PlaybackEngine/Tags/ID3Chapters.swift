/// ID3v2 chapters (the ID3v2 Chapter Frame Addendum, as podcasts carry them): `CHAP` frames,
/// each an element id, start and end times in milliseconds, byte offsets, and embedded frames
/// (its `TIT2` is its title); and `CTOC` frames, tables of contents naming chapters. libmpg123
/// does not parse them, so they are read from the raw tag it keeps (`MPG123_STORE_RAW_ID3`),
/// ID3v2.3 and 2.4, unsynchronised or not. A broken frame is passed over, never an error.
public enum ID3Chapters {
    /// Each chapter's start (seconds) and title, as the tag has them: in the tag's order, to be
    /// made into an item's list by `Chapter.normalized`. When a top-level table of contents
    /// names chapters that exist, only those. Public for its fuzz target (`playbackd-fuzz
    /// id3-chapters`), which feeds it raw bytes.
    public static func read(rawTag tag: UnsafeBufferPointer<UInt8>) -> [(start: Double, title: String?)] {
        // Most tags have no chapters, and some hold a cover of megabytes: look before copying.
        guard containsChapterFrame(tag) else { return [] }
        let bytes = Array(tag)
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)), bytes[3] == 3 || bytes[3] == 4 else {
            return []
        }
        let version = Int(bytes[3])
        let flags = bytes[5]
        let size = synchsafe(bytes[6..<10])
        var body = Array(bytes[10..<min(bytes.count, 10 + size)])
        if version == 3 && flags & 0x80 != 0 { body = resynchronised(body[...]) }
        var start = 0
        if flags & 0x40 != 0, body.count >= 4 {
            // The extended header: its size excludes itself in 2.3, includes itself in 2.4.
            let extended = version == 3 ? bigEndian(body[0..<4]) + 4 : synchsafe(body[0..<4])
            start = min(body.count, max(4, extended))
        }
        var chapters: [String: (start: Double, title: String?)] = [:]
        var order: [String] = []
        var contents: [String]?
        for frame in frames(body[start...], version: version) {
            switch frame.id {
            case "CHAP":
                guard let chapter = chapter(frame.data, version: version), chapters[chapter.id] == nil else { continue }
                chapters[chapter.id] = (chapter.start, chapter.title)
                order.append(chapter.id)
            case "CTOC":
                if let table = tableOfContents(frame.data), table.isTopLevel || contents == nil {
                    contents = table.entries
                }
            default: continue
            }
        }
        if let contents {
            let named = contents.compactMap { chapters[$0] }
            if !named.isEmpty { return named }
        }
        return order.compactMap { chapters[$0] }
    }

    /// Whether the bytes hold `CHAP` anywhere (a quick look: no frame is parsed).
    private static func containsChapterFrame(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 4 <= tag.count {
            if tag[index] == 0x43, tag[index + 1] == 0x48, tag[index + 2] == 0x41, tag[index + 3] == 0x50 {
                return true
            }
            index += 1
        }
        return false
    }

    /// The frames of a tag body: id and data (decompressed frames and encrypted ones are
    /// passed over; unsynchronisation undone).
    private static func frames(_ body: ArraySlice<UInt8>, version: Int) -> [(id: String, data: ArraySlice<UInt8>)] {
        var result: [(id: String, data: ArraySlice<UInt8>)] = []
        var rest = body
        while rest.count >= 10, rest[rest.startIndex] != 0 {
            let at = rest.startIndex
            let id = String(decoding: rest[at..<at + 4], as: UTF8.self)
            let size = version == 4 ? synchsafe(rest[at + 4..<at + 8]) : bigEndian(rest[at + 4..<at + 8])
            guard size <= rest.count - 10 else { break }
            let formatFlags = rest[at + 9]
            var data = rest[(at + 10)..<(at + 10 + size)]
            rest = rest[(at + 10 + size)...]
            if version == 4 {
                guard formatFlags & 0x0C == 0 else { continue }  // compressed or encrypted
                if formatFlags & 0x01 != 0 { data = data.dropFirst(4) }  // the data length indicator
                if formatFlags & 0x40 != 0 { data = data.dropFirst(1) }  // the group id
                if formatFlags & 0x02 != 0 { data = resynchronised(data)[...] }
            } else {
                guard formatFlags & 0xC0 == 0 else { continue }  // compressed or encrypted
                if formatFlags & 0x20 != 0 { data = data.dropFirst(1) }  // the group id
            }
            result.append((id, data))
        }
        return result
    }

    /// A `CHAP` frame: element id, start time (ms), and the title of its embedded `TIT2`.
    private static func chapter(_ data: ArraySlice<UInt8>, version: Int) -> (id: String, start: Double, title: String?)?
    {
        guard let end = data.firstIndex(of: 0), data.endIndex - end > 16 else { return nil }
        let id = String(decoding: data[data.startIndex..<end], as: UTF8.self)
        let times = data[(end + 1)...]
        let start = Double(bigEndian(times.prefix(4))) / 1000
        let embedded = frames(times.dropFirst(16), version: version)
        let title = embedded.first { $0.id == "TIT2" }.flatMap { text($0.data) }
        return (id, start, title)
    }

    /// A `CTOC` frame: whether it is the top level, and the element ids it names.
    private static func tableOfContents(_ data: ArraySlice<UInt8>) -> (isTopLevel: Bool, entries: [String])? {
        guard let end = data.firstIndex(of: 0), data.endIndex - end > 2 else { return nil }
        let flags = data[end + 1]
        var count = Int(data[end + 2])
        var rest = data[(end + 3)...]
        var entries: [String] = []
        while count > 0, let terminator = rest.firstIndex(of: 0) {
            entries.append(String(decoding: rest[rest.startIndex..<terminator], as: UTF8.self))
            rest = rest[(terminator + 1)...]
            count -= 1
        }
        return (flags & 0x01 != 0, entries)
    }

    /// A text frame's first string: Latin-1, UTF-16 with a byte order mark, UTF-16BE or UTF-8.
    static func text(_ data: ArraySlice<UInt8>) -> String? {
        guard let encoding = data.first else { return nil }
        let content = data.dropFirst()
        let value: String
        switch encoding {
        case 0: value = String(content.prefix { $0 != 0 }.map { Character(Unicode.Scalar($0)) })
        case 3: value = String(decoding: content.prefix { $0 != 0 }, as: UTF8.self)
        case 1, 2:
            var units = Array(content)
            var bigEndian = encoding == 2
            if encoding == 1, units.count >= 2 {
                bigEndian = units[0] == 0xFE && units[1] == 0xFF
                units.removeFirst(2)
            }
            var code: [UInt16] = []
            var index = 0
            while index + 1 < units.count {
                let unit =
                    bigEndian
                    ? UInt16(units[index]) << 8 | UInt16(units[index + 1])
                    : UInt16(units[index + 1]) << 8 | UInt16(units[index])
                if unit == 0 { break }
                code.append(unit)
                index += 2
            }
            value = String(decoding: code, as: UTF16.self)
        default: return nil
        }
        return value.isEmpty ? nil : value
    }

    private static func synchsafe(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Undoes unsynchronisation: every `FF 00` becomes `FF`.
    private static func resynchronised(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0) { result.append(byte) }
            previous = byte
        }
        return result
    }
}
