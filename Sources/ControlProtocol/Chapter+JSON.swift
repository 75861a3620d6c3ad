import PlaybackModel

/// The `chapters` reply's list and the resume state's: each chapter's `start`, `end` and
/// `title`.
extension [Chapter] {
    public var json: JSONValue {
        .array(
            map { chapter in
                .object([
                    ("start", .number(chapter.start.roundedToMicroseconds)),
                    ("end", .number(chapter.end.roundedToMicroseconds)), ("title", .string(chapter.title)),
                ])
            })
    }

    /// Reads a list written by `json`.
    public init(json: JSONValue) throws(WireDecodingError) {
        guard let entries = json.arrayValue else { throw WireDecodingError("'chapters' is not an array") }
        self = []
        for entry in entries {
            let reader = WireReader(object: entry, context: "chapter")
            append(
                Chapter(
                    start: try reader.number("start"), end: try reader.number("end"), title: try reader.string("title"))
            )
        }
    }
}

extension Bookmark {
    /// One entry of the `bookmarks` reply.
    public var json: JSONValue {
        .object([
            ("path", .string(path)), ("title", .string(title)), ("position", .number(position.roundedToMicroseconds)),
            ("duration", .number(duration.roundedToMicroseconds)), ("saved", .number(saved.roundedToMicroseconds)),
        ])
    }

    /// Reads an entry of the `bookmarks` reply.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "bookmark")
        self.init(
            path: try reader.string("path"), title: try reader.string("title"), position: try reader.number("position"),
            duration: try reader.number("duration"), saved: try reader.number("saved"))
    }
}
