#if canImport(Glibc)
    import Glibc
#endif

/// The names in one folder as a walk reads them, in one byte array (each followed by a NUL,
/// for `fstatat`), with no string made for a name that is ASCII; hidden names are left out.
/// They sort as Swift orders strings: ASCII names by their bytes, which is that order, and a
/// pair where either name is not ASCII by the names as strings (by their canonical form, which
/// their bytes alone are not).
struct FolderNames {
    private struct Entry {
        var start: Int
        var count: Int
        var kind: UInt8
        /// The name in `texts` when it is not ASCII, else -1.
        var text: Int32
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    private var texts: [String] = []

    var indices: Range<Int> { entries.indices }

    /// Adds `name` of a folder entry of `kind` (its `d_type`), unless it is hidden. False when
    /// the name is not UTF-8.
    mutating func add(_ name: UnsafeBufferPointer<UInt8>, kind: UInt8) -> Bool {
        guard name.first != UInt8(ascii: ".") else { return true }
        var text: Int32 = -1
        if name.contains(where: { $0 >= 0x80 }) {
            guard let string = String(validating: name, as: UTF8.self) else { return false }
            text = Int32(texts.count)
            texts.append(string)
        }
        entries.append(Entry(start: bytes.count, count: name.count, kind: kind, text: text))
        bytes.append(contentsOf: name)
        bytes.append(0)
        return true
    }

    mutating func sort() {
        bytes.withUnsafeBufferPointer { bytes in
            let texts = texts
            func string(_ entry: Entry) -> String {
                entry.text >= 0
                    ? texts[Int(entry.text)]
                    : String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.start + entry.count]),
                        as: UTF8.self)
            }
            entries.sort { first, second in
                guard first.text < 0 && second.text < 0 else { return string(first) < string(second) }
                let common = min(first.count, second.count)
                let order = memcmp(bytes.baseAddress! + first.start, bytes.baseAddress! + second.start, common)
                return order != 0 ? order < 0 : first.count < second.count
            }
        }
    }

    /// The entry's kind as the folder gave it (`DT_DIR`, `DT_REG`, `DT_UNKNOWN`...).
    func kind(at index: Int) -> UInt8 { entries[index].kind }

    func name(at index: Int) -> String {
        let entry = entries[index]
        return entry.text >= 0 ? texts[Int(entry.text)] : withName(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    func name(at index: Int, equals string: String) -> Bool {
        entries[index].count == string.utf8.count && withName(at: index) { $0.elementsEqual(string.utf8) }
    }

    /// The name's UTF-8 bytes.
    func withName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        return bytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[entry.start..<entry.start + entry.count]))
        }
    }

    /// The name as a C string.
    func withCName<Result>(at index: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let start = entries[index].start
        return bytes.withUnsafeBufferPointer { bytes in
            UnsafeRawPointer(bytes.baseAddress! + start).withMemoryRebound(to: CChar.self, capacity: 1) { body($0) }
        }
    }
}
