#if canImport(Glibc)
    import Glibc
#endif

/// Environment variables, looked up one name at a time: the process's own (through `getenv`,
/// without copying the whole environment, which costs a short-lived CLI a third of its
/// instructions) or a fixed table for tests.
public struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    private let table: [String: String]?

    /// The process environment.
    public static let process = Environment(table: nil)

    private init(table: [String: String]?) { self.table = table }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(table: Dictionary(elements) { $1 })
    }

    public init(_ table: [String: String]) { self.init(table: table) }

    public subscript(name: String) -> String? {
        if let table { return table[name] }
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
