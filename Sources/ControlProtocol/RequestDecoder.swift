/// Turns one request line into a typed `Request`, or a `badRequest` with the reason.
public enum RequestDecoder {
    /// A rejected line: the reason, and the request `id` when one could be read.
    public struct Failure: Error, Equatable {
        public var id: JSONValue?
        public var error: RequestError
    }

    /// Inlinable, like `JSONParser.parse`, so that the daemon reads its line buffer's bytes in
    /// place rather than through the runtime's generic witnesses.
    @inlinable
    public static func decode(_ line: some Collection<UInt8>) -> Result<Request, Failure> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return unparsable(error)
        }
        return decode(value)
    }

    @usableFromInline
    static func unparsable(_ error: JSONParseError) -> Result<Request, Failure> {
        .failure(Failure(id: nil, error: RequestError(error.description)))
    }

    @usableFromInline
    static func decode(_ value: JSONValue) -> Result<Request, Failure> {
        guard case .object(let members) = value else {
            return .failure(
                Failure(id: nil, error: RequestError("a request must be a JSON object, got \(value.typeName)")))
        }
        let id = value["id"]
        if let id, id.stringValue == nil && id.numberValue == nil {
            return .failure(
                Failure(id: nil, error: RequestError("'id' must be a string or a number, got \(id.typeName)")))
        }
        do throws(RequestError) {
            return .success(Request(id: id, command: try command(from: members)))
        } catch {
            return .failure(Failure(id: id, error: error))
        }
    }

    private static func command(from members: [(String, JSONValue)]) throws(RequestError) -> Command {
        guard let nameValue = members.first(where: { $0.0 == "command" })?.1 else {
            throw RequestError("missing 'command'")
        }
        guard let wireName = nameValue.stringValue else {
            throw RequestError("'command' must be a string, got \(nameValue.typeName)")
        }
        guard let name = CommandName(rawValue: wireName) else {
            throw RequestError("unknown command '\(wireName)'")
        }
        let spec = CommandCatalog.spec(name)
        var values: [String: JSONValue] = [:]
        for (key, value) in members where key != "id" && key != "command" {
            guard let argument = spec.arguments.first(where: { $0.name == key }) else {
                throw RequestError("unknown argument '\(key)' for \(wireName)")
            }
            guard values[key] == nil else { throw RequestError("duplicate argument '\(key)'") }
            guard argument.kind.check(value) else {
                throw RequestError("'\(key)' must be a \(argument.kind.rawValue), got \(value.typeName)")
            }
            values[key] = value
        }
        for argument in spec.arguments where argument.isRequired && values[argument.name] == nil {
            throw RequestError("\(wireName) requires '\(argument.name)'")
        }
        return try spec.build(ArgumentValues(command: name, values: values))
    }
}
