/// One box (atom) of an MP4 file: its four-character type and where its body lies in the bytes
/// it was read from (ISO/IEC 14496-12 §4.2: a 32-bit size, or 1 and a 64-bit size after the
/// type, or 0 for "to the end").
struct MP4Box {
    let type: MP4BoxType
    let body: Range<Int>

    /// The body from `offset` bytes in (past a full box's version and flags, a sample entry's
    /// fields); empty when the body is shorter.
    func body(after offset: Int) -> Range<Int> { min(body.lowerBound + offset, body.upperBound)..<body.upperBound }
}

/// A box's four-character type as one big-endian integer.
struct MP4BoxType: Hashable, CustomStringConvertible {
    let code: UInt32

    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4)
        let bytes = UnsafeBufferPointer(start: name.utf8Start, count: 4)
        code = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    init(code: UInt32) { self.code = code }

    var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}

/// Big-endian reads from a box's bytes: each returns nil past its end rather than trapping, so
/// that a truncated or lying box is refused, never read out of bounds.
struct MP4Bytes {
    let bytes: [UInt8]

    func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }

    func u16(_ at: Int) -> Int? { unsigned(at, 2).map(Int.init) }

    func u32(_ at: Int) -> Int? { unsigned(at, 4).map(Int.init) }

    func u64(_ at: Int) -> Int? { unsigned(at, 8).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil } }

    private func unsigned(_ at: Int, _ count: Int) -> UInt64? {
        guard at >= 0, count <= bytes.count, at <= bytes.count - count else { return nil }
        var value: UInt64 = 0
        for index in at..<at + count { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The boxes that lie one after another in `range`; a box whose size runs past `range` ends
    /// the list there.
    func boxes(in range: Range<Int>) -> [MP4Box] {
        var found: [MP4Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound, let size32 = u32(at), let code = u32(at + 4) {
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let size64 = u64(at + 8) else { break }
                size = size64
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            found.append(MP4Box(type: MP4BoxType(code: UInt32(code)), body: at + header..<at + size))
            at += size
        }
        return found
    }

    /// The first box of `type` in `range`.
    func first(_ type: MP4BoxType, in range: Range<Int>) -> MP4Box? { boxes(in: range).first { $0.type == type } }

    /// The box at the end of `path`, each a child of the one before, from `range`.
    func find(_ path: [MP4BoxType], in range: Range<Int>) -> MP4Box? {
        var box: MP4Box?
        var within = range
        for type in path {
            box = first(type, in: within)
            guard let found = box else { return nil }
            within = found.body
        }
        return box
    }

    /// The bytes of `range` clipped to what there is.
    subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[max(0, min(range.lowerBound, bytes.count))..<max(0, min(range.upperBound, bytes.count))]
    }
}
