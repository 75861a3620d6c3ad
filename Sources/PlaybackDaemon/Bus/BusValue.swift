/// A D-Bus value of the types the daemon sends, comparable so that a front end can tell which
/// properties really changed before it announces them.
enum BusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case strings([String])
    /// `a{sv}`: a dictionary of variants, in a fixed order.
    case dictionary([BusEntry])

    /// Its type signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .int32: "i"
        case .int64: "x"
        case .double: "d"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }
}

/// One entry of an `a{sv}` dictionary.
struct BusEntry: Equatable, Sendable {
    let key: String
    let value: BusValue

    init(_ key: String, _ value: BusValue) {
        self.key = key
        self.value = value
    }
}
