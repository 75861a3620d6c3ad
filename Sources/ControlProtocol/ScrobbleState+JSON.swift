import PlaybackModel

extension ScrobbleState {
    /// `{"service", "enabled", "authorised", "pending", "setAside", "lastSent", "lastError"}`;
    /// `lastSent` and `lastError` only when known.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("service", .string(service)), ("enabled", .bool(enabled)), ("authorised", .bool(authorised)),
            ("pending", .number(Double(pending))), ("setAside", .number(Double(setAside))),
        ]
        if let lastSent { members.append(("lastSent", .number(lastSent))) }
        if let lastError { members.append(("lastError", .string(lastError))) }
        return .object(members)
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "scrobbling service")
        self.init(
            service: try reader.string("service"), enabled: json["enabled"]?.boolValue ?? false,
            authorised: json["authorised"]?.boolValue ?? false, pending: try reader.wholeNumber("pending"),
            setAside: try reader.wholeNumber("setAside"), lastSent: try reader.optionalNumber("lastSent"),
            lastError: try reader.optionalString("lastError"))
    }
}

extension ScrobbleLogin {
    /// `authorised`, and `url` and `token` when given.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("authorised", .bool(authorised))]
        if let url { members.append(("url", .string(url))) }
        if let token { members.append(("token", .string(token))) }
        return members
    }
}
