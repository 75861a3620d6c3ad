import ControlProtocol

/// Shorthand for reading numbers out of replies in tests.
protocol JSONValueLike {
    func number(_ key: String) -> Double?
}

extension JSONValue: JSONValueLike {
    func number(_ key: String) -> Double? { self[key]?.numberValue }
}
