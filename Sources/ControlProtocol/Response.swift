import PlaybackModel

/// One reply line: the echoed `id`, a status, a message on failure, and the command's fields.
public struct Response: Sendable, Equatable {
    public var id: JSONValue?
    public var status: CommandStatus
    public var message: String?
    public var fields: [(String, JSONValue)]

    public init(
        id: JSONValue? = nil, status: CommandStatus, message: String? = nil,
        fields: [(String, JSONValue)] = []
    ) {
        self.id = id
        self.status = status
        self.message = message
        self.fields = fields
    }

    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.json == rhs.json
    }

    public static func success(_ fields: [(String, JSONValue)] = []) -> Response {
        Response(status: .success, fields: fields)
    }

    public static func failure(_ status: CommandStatus, _ message: String) -> Response {
        Response(status: status, message: message)
    }

    /// The object as written: `id` first (when present), then `status`, `message`, fields.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", id)) }
        members.append(("status", .string(status.rawValue)))
        if let message { members.append(("message", .string(message))) }
        members.append(contentsOf: fields)
        return .object(members)
    }

    /// The line sent on the wire, newline included, as UTF-8.
    public var lineBytes: [UInt8] {
        var bytes = json.serializedBytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
