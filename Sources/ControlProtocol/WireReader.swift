import PlaybackModel

/// Typed access to a JSON object's members, with errors that name the member: the reading
/// half of the wire's codecs and of the resume state's.
public struct WireReader {
    public let object: JSONValue
    public let context: String

    public init(object: JSONValue, context: String) {
        self.object = object
        self.context = context
    }

    private func invalid(_ key: String, _ type: String) -> WireDecodingError {
        WireDecodingError("\(context): '\(key)' is missing or not \(type)")
    }

    /// A finite number.
    public func number(_ key: String) throws(WireDecodingError) -> Double {
        guard let value = object[key]?.numberValue, value.isFinite else { throw invalid(key, "a number") }
        return value
    }

    /// A finite number, or nil when absent or null.
    public func optionalNumber(_ key: String) throws(WireDecodingError) -> Double? {
        guard let value = object[key], value != .null else { return nil }
        return try number(key)
    }

    /// A whole number from 0 up.
    public func wholeNumber<Number: BinaryInteger>(_ key: String) throws(WireDecodingError) -> Number {
        guard let value = object[key]?.numberValue, value >= 0, value == value.rounded(), value < 1e15 else {
            throw invalid(key, "a whole number")
        }
        return Number(value)
    }

    /// A whole number from 0 up, or nil when absent or null.
    public func optionalWholeNumber<Number: BinaryInteger>(_ key: String) throws(WireDecodingError) -> Number? {
        guard let value = object[key], value != .null else { return nil }
        return try wholeNumber(key)
    }

    /// A string, or nil when absent or null.
    public func optionalString(_ key: String) throws(WireDecodingError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        return try string(key)
    }

    public func string(_ key: String) throws(WireDecodingError) -> String {
        guard let value = object[key]?.stringValue else { throw invalid(key, "a string") }
        return value
    }

    /// The item a URL names: the absolute path of a local `file://` URL, or an http(s) URL.
    public func path(_ key: String) throws(WireDecodingError) -> String {
        guard let path = StreamURL.item(fromURL: try string(key)) else { throw invalid(key, "a file or http(s) URL") }
        return path
    }

    public func array(_ key: String) throws(WireDecodingError) -> [JSONValue] {
        guard let value = object[key]?.arrayValue else { throw invalid(key, "an array") }
        return value
    }

    /// One of a closed set of strings (a state, a mode).
    public func choice<Choice: RawRepresentable>(_ key: String) throws(WireDecodingError) -> Choice
    where Choice.RawValue == String {
        guard let value = object[key]?.stringValue.flatMap(Choice.init(rawValue:)) else {
            throw invalid(key, "a known value")
        }
        return value
    }
}
