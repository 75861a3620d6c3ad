import PlaybackModel

/// The wire form of library queries and results: a query read from a request's members
/// (`libraryQuery`, and `enqueue`'s `libraryQuery` object) and written back by `playbackctl`;
/// songs, albums and names written by the daemon and read by `playbackctl`.
extension LibraryQuery {
    /// Reads a query from `members`; every problem names what is wrong (an unknown entity,
    /// field or comparison, a bad page).
    init(members: [String: JSONValue]) throws(RequestError) {
        self.init()
        if let word = members["entity"] {
            guard let name = word.stringValue, let entity = Entity(rawValue: name) else {
                throw RequestError(
                    "'entity' must be one of \(Entity.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), got \(word.serialized)"
                )
            }
            self.entity = entity
        }
        if let list = members["filters"] {
            guard let filters = list.arrayValue else { throw RequestError("'filters' must be an array of objects") }
            for filter in filters { self.filters.append(try Filter(json: filter)) }
        }
        if let list = members["exclude"] {
            guard let groups = list.arrayValue else { throw RequestError("'exclude' must be an array of objects") }
            for group in groups {
                guard let filters = group["filters"]?.arrayValue, !filters.isEmpty else {
                    throw RequestError("each of 'exclude' must be an object with a non-empty 'filters' array")
                }
                var excluded: [Filter] = []
                for filter in filters { excluded.append(try Filter(json: filter)) }
                exclusions.append(excluded)
            }
        }
        if let text = members["text"] {
            guard let words = text.stringValue else { throw RequestError("'text' must be a string") }
            self.text = words
        }
        if let sort = members["sort"] {
            guard let keys = sort.arrayValue?.compactMap(\.stringValue), keys.count == sort.arrayValue?.count else {
                throw RequestError("'sort' must be an array of field names")
            }
            for key in keys {
                let descending = key.hasPrefix(bytes: "-")
                let field = descending ? String(key.dropFirst()) : key
                guard entity.sortFields.contains(field) else {
                    throw RequestError(
                        "\(entity.rawValue) cannot be sorted by '\(field)' (\(entity.sortFields.joined(separator: ", ")))"
                    )
                }
                self.sort.append(SortKey(field, descending: descending))
            }
        }
        offset = try Self.whole(members["offset"], "offset", upTo: ProtocolLimits.maximumIndex) ?? 0
        limit = try Self.whole(members["limit"], "limit", upTo: Self.maximumLimit) ?? Self.maximumLimit
    }

    private static func whole(_ value: JSONValue?, _ name: String, upTo most: Int) throws(RequestError) -> Int? {
        guard let value else { return nil }
        guard let number = value.numberValue, number >= 0, number == number.rounded(), number <= Double(most) else {
            throw RequestError("'\(name)' must be a whole number from 0 to \(most), got \(value.serialized)")
        }
        return Int(number)
    }

    /// The members `init(members:)` reads.
    public var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("entity", .string(entity.rawValue))]
        if !filters.isEmpty { members.append(("filters", .array(filters.map(\.json)))) }
        if !exclusions.isEmpty {
            members.append(
                ("exclude", .array(exclusions.map { .object([("filters", .array($0.map(\.json)))]) })))
        }
        if let text { members.append(("text", .string(text))) }
        if !sort.isEmpty {
            members.append(("sort", .array(sort.map { .string(($0.descending ? "-" : "") + $0.field) })))
        }
        if offset != 0 { members.append(("offset", .number(Double(offset)))) }
        if limit != Self.maximumLimit { members.append(("limit", .number(Double(limit)))) }
        return members
    }
}

extension LibraryQuery.Filter {
    init(json: JSONValue) throws(RequestError) {
        guard let members = json.objectMembers else { throw RequestError("each filter must be an object") }
        let object = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard let name = object["field"]?.stringValue else { throw RequestError("a filter needs 'field'") }
        guard let field = LibraryField.named(name) else {
            throw RequestError(
                "unknown field '\(name)' (\(LibraryField.all.map(\.name).joined(separator: ", ")))")
        }
        let opName = object["op"]?.stringValue ?? LibraryQuery.Comparison.equalTo.rawValue
        guard let comparison = LibraryQuery.Comparison(rawValue: opName) else {
            throw RequestError(
                "unknown op '\(opName)' (\(LibraryQuery.Comparison.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let allowed: [LibraryQuery.Comparison] =
            field.kind == .text ? [.equalTo, .contains, .startsWith, .matches] : [.equalTo, .atLeast, .atMost]
        guard allowed.contains(comparison) else {
            throw RequestError(
                "'\(name)' cannot be compared with \(opName) (\(allowed.map(\.rawValue).joined(separator: ", ")))")
        }
        let value: String
        switch object["value"] {
        case .string(let text)? where field.kind == .text: value = text
        case .number(let number)? where field.kind == .number: value = JSONValue.format(number)
        case .string(let text)? where field.kind == .number && Double(text) != nil: value = text
        default:
            throw RequestError("the filter on '\(name)' needs a \(field.kind == .text ? "string" : "number") 'value'")
        }
        var negated = false
        if let not = object["not"] {
            guard let flag = not.boolValue else {
                throw RequestError("the filter on '\(name)': 'not' must be a boolean")
            }
            negated = flag
        }
        self.init(field, comparison, value, negated: negated)
    }

    var json: JSONValue {
        .object(
            [
                ("field", .string(field.name)), ("op", .string(comparison.rawValue)),
                ("value", field.kind == .number ? .number(Double(value) ?? 0) : .string(value)),
            ] + (isNegated ? [("not", .bool(true))] : []))
    }
}

extension LibrarySong {
    /// One song of a `libraryQuery` reply: its id, its track fields as in a snapshot, then its
    /// path, every artist and its statistics.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id))]
        members += metadata.wireMembers(head: true)
        members.append(("assetURL", .string(StreamURL.url(ofItem: path))))
        members.append(("path", .string(path)))
        members += metadata.wireMembers(head: false)
        members.append(("artists", .array(artists.map(JSONValue.string))))
        members += [
            ("playCount", .number(Double(statistics.playCount))),
            ("skipCount", .number(Double(statistics.skipCount))),
            ("lastPlayed", .optional(statistics.lastPlayed)),
            ("dateAdded", .number(statistics.dateAdded)),
            ("rating", .number(Double(statistics.rating))),
        ]
        return .object(members)
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "library song")
        self.init(
            id: try reader.string("id"), path: try reader.string("path"),
            metadata: try TrackMetadata.decoding(json, onWire: true, context: "library song"),
            artists: try reader.array("artists").compactMap(\.stringValue),
            statistics: PlayStatistics(
                playCount: try reader.wholeNumber("playCount"), skipCount: try reader.wholeNumber("skipCount"),
                lastPlayed: try reader.optionalNumber("lastPlayed"), dateAdded: try reader.number("dateAdded"),
                rating: try reader.wholeNumber("rating")))
    }
}

extension LibraryAlbum {
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("album", .string(album)), ("albumArtist", .optional(albumArtist)),
            ("year", .optional(year.map(Double.init))), ("songCount", .number(Double(songCount))),
            ("duration", .number(duration.roundedToMicroseconds)),
            ("artworkURL", .optional(artworkPath.map(FileURL.from(path:)))),
        ])
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "library album")
        self.init(
            id: try reader.string("id"), album: try reader.string("album"),
            albumArtist: json["albumArtist"]?.stringValue, year: try reader.optionalWholeNumber("year"),
            songCount: try reader.wholeNumber("songCount"), duration: try reader.number("duration"),
            artworkPath: json["artworkURL"]?.stringValue.flatMap(FileURL.path(fromURL:)))
    }
}

extension LibraryName {
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("name", .string(name)), ("songCount", .number(Double(songCount))),
            ("albumCount", .number(Double(albumCount))),
        ])
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "library name")
        self.init(
            id: try reader.string("id"), name: try reader.string("name"),
            songCount: try reader.wholeNumber("songCount"),
            albumCount: try reader.wholeNumber("albumCount"))
    }
}

extension LibraryStatus {
    public var json: JSONValue {
        .object([
            ("state", .string(state.rawValue)), ("songs", .number(Double(songs))), ("albums", .number(Double(albums))),
            ("artists", .number(Double(artists))), ("scanned", .number(Double(scanned))),
            ("toRead", .number(Double(toRead))),
            ("failed", .number(Double(failed))), ("updatedAt", .optional(updatedAt)),
            ("roots", .array(roots.map(JSONValue.string))), ("measured", .number(Double(measured))),
            ("toMeasure", .number(Double(toMeasure))),
        ])
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "library status")
        self.init(
            state: try reader.choice("state"), songs: try reader.wholeNumber("songs"),
            albums: try reader.wholeNumber("albums"), artists: try reader.wholeNumber("artists"),
            scanned: try reader.wholeNumber("scanned"), toRead: try reader.optionalWholeNumber("toRead") ?? 0,
            failed: try reader.wholeNumber("failed"),
            updatedAt: try reader.optionalNumber("updatedAt"),
            roots: try reader.array("roots").compactMap(\.stringValue),
            measured: try reader.optionalWholeNumber("measured") ?? 0,
            toMeasure: try reader.optionalWholeNumber("toMeasure") ?? 0)
    }
}

extension LibraryPage.Items {
    var json: [JSONValue] {
        switch self {
        case .songs(let songs): songs.map(\.json)
        case .albums(let albums): albums.map(\.json)
        case .names(let names): names.map(\.json)
        }
    }

    /// Reads a page's items: songs carry a `path`, albums an `album`, names a `name`.
    init(json items: [JSONValue]) throws(WireDecodingError) {
        guard let first = items.first else {
            self = .songs([])
            return
        }
        if first["path"] != nil {
            var songs: [LibrarySong] = []
            for item in items { songs.append(try LibrarySong(json: item)) }
            self = .songs(songs)
        } else if first["album"] != nil && first["songCount"] != nil {
            var albums: [LibraryAlbum] = []
            for item in items { albums.append(try LibraryAlbum(json: item)) }
            self = .albums(albums)
        } else {
            var names: [LibraryName] = []
            for item in items { names.append(try LibraryName(json: item)) }
            self = .names(names)
        }
    }
}
