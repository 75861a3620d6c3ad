/// A request's arguments, already checked against the command's `ArgumentSpec`s for
/// presence and JSON type. The accessors add range checks.
struct ArgumentValues {
    let command: CommandName
    let values: [String: JSONValue]

    /// Which of two alternative arguments a request gave (`volume` or `change`), with its value.
    enum Alternative<Value> {
        case first(Value)
        case second(Value)
    }

    /// The one of two alternative arguments that was given; an error when both or neither were.
    /// `first` and `second` are the names and their values, as read by the other accessors.
    func oneOf<Value>(_ first: (String, Value?), or second: (String, Value?)) throws(RequestError) -> Alternative<Value>
    {
        switch (first.1, second.1) {
        case (let value?, nil): return .first(value)
        case (nil, let value?): return .second(value)
        case (nil, nil): throw RequestError("\(command.rawValue) needs '\(first.0)' or '\(second.0)'")
        default: throw RequestError("\(command.rawValue) takes '\(first.0)' or '\(second.0)', not both")
        }
    }

    func positiveNumber(_ name: String) throws(RequestError) -> Double? {
        guard let n = values[name]?.numberValue else { return nil }
        guard n > 0 else { throw RequestError("'\(name)' must be greater than 0, got \(JSONValue.format(n))") }
        return n
    }

    /// A number within `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(RequestError) -> Double? {
        guard let n = values[name]?.numberValue else { return nil }
        guard range.contains(n) else {
            throw RequestError(
                "'\(name)' must be \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)), got \(JSONValue.format(n))"
            )
        }
        return n
    }

    func nonNegativeNumber(_ name: String) throws(RequestError) -> Double? {
        guard let n = values[name]?.numberValue else { return nil }
        guard n >= 0 else { throw RequestError("'\(name)' must not be negative, got \(JSONValue.format(n))") }
        return n
    }

    /// A queue index: a whole number from 0 up to `limit` (when given).
    func index(_ name: String) throws(RequestError) -> Int? {
        guard let n = values[name]?.numberValue else { return nil }
        guard n >= 0, n.rounded() == n, n <= Double(ProtocolLimits.maximumIndex) else {
            throw RequestError("'\(name)' must be a whole number >= 0, got \(JSONValue.format(n))")
        }
        return Int(n)
    }

    /// One of a mode's wire names.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _: Choice.Type) throws(RequestError) -> Choice?
    where Choice.RawValue == String {
        guard let word = values[name]?.stringValue else { return nil }
        guard let choice = Choice(rawValue: word) else {
            let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw RequestError("'\(name)' must be one of \(names), got \(JSONValue.string(word).serialized)")
        }
        return choice
    }

    func bool(_ name: String) throws(RequestError) -> Bool? {
        values[name]?.boolValue
    }

    func stringList(_ name: String) throws(RequestError) -> [String]? {
        guard let array = values[name]?.arrayValue else { return nil }
        guard !array.isEmpty else { throw RequestError("'\(name)' must not be empty") }
        return array.compactMap(\.stringValue)
    }

    func string(_ name: String) throws(RequestError) -> String? {
        values[name]?.stringValue
    }

    /// Finite numbers, each within `range`.
    func numberList(_ name: String, in range: ClosedRange<Double>) throws(RequestError) -> [Double]? {
        guard let array = values[name]?.arrayValue else { return nil }
        guard !array.isEmpty else { throw RequestError("'\(name)' must not be empty") }
        let numbers = array.compactMap(\.numberValue)
        if let outside = numbers.first(where: { !range.contains($0) }) {
            throw RequestError(
                "'\(name)' values must be \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)), got \(JSONValue.format(outside))"
            )
        }
        return numbers
    }

    func commandName(_ name: String) throws(RequestError) -> CommandName? {
        values[name]?.stringValue.flatMap(CommandName.init(rawValue:))
    }
}

extension ArgumentKind {
    /// Whether `value` has this kind; for a mismatch, what was expected.
    func check(_ value: JSONValue) -> Bool {
        switch self {
        case .number: value.numberValue != nil
        case .boolean: value.boolValue != nil
        case .string: value.stringValue != nil
        case .stringList: value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        case .numberList: value.arrayValue?.allSatisfy { $0.numberValue != nil } ?? false
        case .commandName: value.stringValue.flatMap(CommandName.init(rawValue:)) != nil
        case .object: value.objectMembers != nil
        case .objectList: value.arrayValue?.allSatisfy { $0.objectMembers != nil } ?? false
        }
    }
}
