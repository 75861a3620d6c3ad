import PlaybackModel

extension Listen {
    /// `{"listenedAt", "seconds", "ending", "listen", "practice", "assetURL", "title", "artists",
    /// "album", "albumArtist", "trackNumber", "duration"}` and the identifiers tagged
    /// (`musicBrainzTrackID`, ..., `isrc`); what is unknown or under way is left out.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("listenedAt", .number(listenedAt))]
        if let seconds { members.append(("seconds", .number(seconds))) }
        if let ending { members.append(("ending", .string(ending))) }
        members += [
            ("listen", .bool(isListen)), ("practice", .bool(isPractice)),
            ("assetURL", .string(StreamURL.url(ofItem: path))),
        ]
        if let title { members.append(("title", .string(title))) }
        members.append(("artists", .array(artists.map(JSONValue.string))))
        if let album { members.append(("album", .string(album))) }
        if let albumArtist { members.append(("albumArtist", .string(albumArtist))) }
        if let trackNumber { members.append(("trackNumber", .number(Double(trackNumber)))) }
        members.append(("duration", .number(duration)))
        for field in TrackField.identifiers {
            if let value = identifiers[field.key] { members.append((field.key, .string(value))) }
        }
        return .object(members)
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: json, context: "listen")
        var artists: [String] = []
        for artist in try reader.array("artists") {
            guard let name = artist.stringValue else { throw WireDecodingError("listen: 'artists' holds a non-string") }
            artists.append(name)
        }
        var identifiers: [String: String] = [:]
        for field in TrackField.identifiers { identifiers[field.key] = try reader.optionalString(field.key) }
        self.init(
            listenedAt: try reader.number("listenedAt"), seconds: try reader.optionalNumber("seconds"),
            ending: try reader.optionalString("ending"), isListen: json["listen"]?.boolValue ?? false,
            isPractice: json["practice"]?.boolValue ?? false, path: try reader.path("assetURL"),
            title: try reader.optionalString("title"), artists: artists, album: try reader.optionalString("album"),
            albumArtist: try reader.optionalString("albumArtist"),
            trackNumber: try reader.optionalWholeNumber("trackNumber"), duration: try reader.number("duration"))
        self.identifiers = identifiers
    }
}
