/// "Natural" file-name order, as file managers sort: runs of digits compare as numbers
/// (`2 - x.mp3` before `10 - y.mp3`), letters without regard to case; ties fall back to
/// the exact bytes so the order is total.
enum NaturalOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in areInIncreasingOrder(a, b) } }
    }

    /// `items` sorted by `name` in natural order. The names' bytes are copied once into one
    /// buffer and the comparisons read it in place: a 10,000-file directory takes about
    /// 130,000 comparisons, and comparing arrays of bytes spent most of them counting
    /// references.
    static func sorted<Item>(_ items: [Item], by name: (Item) -> String) -> [Item] {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(items.count)
        for item in items {
            let start = bytes.count
            bytes.append(contentsOf: name(item).utf8)
            ranges.append(start..<bytes.count)
        }
        let order = bytes.withUnsafeBufferPointer { flat in
            ranges.withUnsafeBufferPointer { ranges in
                items.indices.sorted {
                    areInIncreasingOrder(
                        UnsafeBufferPointer(rebasing: flat[ranges[$0]]), UnsafeBufferPointer(rebasing: flat[ranges[$1]])
                    )
                }
            }
        }
        return order.map { items[$0] }
    }

    private static func areInIncreasingOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let result = compare(a, b)
        return result != 0 ? result < 0 : a.lexicographicallyPrecedes(b)
    }

    /// Negative, zero or positive, like `strcmp`, ignoring ASCII case.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let (aEnd, bEnd) = (digitsEnd(a, i), digitsEnd(b, j))
                let aDigits = a[i..<aEnd].drop { $0 == UInt8(ascii: "0") }
                let bDigits = b[j..<bEnd].drop { $0 == UInt8(ascii: "0") }
                if aDigits.count != bDigits.count { return aDigits.count - bDigits.count }
                if let (x, y) = zip(aDigits, bDigits).first(where: { $0 != $1 }) { return Int(x) - Int(y) }
                (i, j) = (aEnd, bEnd)
                continue
            }
            let (x, y) = (lowercased(a[i]), lowercased(b[j]))
            if x != y { return Int(x) - Int(y) }
            i += 1
            j += 1
        }
        return (a.count - i) - (b.count - j)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
    private static func digitsEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var end = start
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        return end
    }
}
