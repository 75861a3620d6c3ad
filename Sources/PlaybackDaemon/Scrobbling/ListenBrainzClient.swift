import ControlProtocol
import PlaybackModel

/// ListenBrainz's API (and any server that speaks it: Maloja, Koito, multi-scrobbler):
/// `POST {root}/1/submit-listens` with the user's token, a listen type (`playing_now`,
/// `single`, `import`) and the listens as its documentation describes them.
struct ListenBrainzClient: ScrobbleClient {
    /// The documented limits: listens in one `import`, and the bytes of one listen's JSON.
    static let maximumListens = 1000
    static let maximumListenBytes = 10_240

    /// The API root (`https://api.listenbrainz.org`).
    let root: String
    let token: String

    var service: ScrobbleService { .listenbrainz }
    var credentialsKey: String { token }
    var batchLimit: Int { Self.maximumListens }

    func unsendable(_ listen: Listen) -> String? {
        let size = Self.payload(listen, type: .single).serializedBytes.count
        return size > Self.maximumListenBytes
            ? "its JSON is \(size) bytes, more than ListenBrainz's \(Self.maximumListenBytes)" : nil
    }

    func nowPlaying(_ listen: Listen) -> HTTPExchange.Request {
        request(.playingNow, [Self.payload(listen, type: .playingNow)])
    }

    func submission(_ listens: [Listen]) -> HTTPExchange.Request {
        let type: ListenType = listens.count == 1 ? .single : .import
        return request(type, listens.map { Self.payload($0, type: type) })
    }

    func answer(_ reply: HTTPExchange.Reply, count: Int) -> ScrobbleAnswer {
        let reason = Self.reason(reply)
        let resetIn = reply.headers["x-ratelimit-reset-in"].flatMap(Double.init).map { max(0, $0) }
        let pause = reply.headers["x-ratelimit-remaining"] == "0" ? resetIn : nil
        switch reply.status {
        case 200..<300: return ScrobbleAnswer(.accepted(refused: [:]), pause: pause)
        case 401, 403: return ScrobbleAnswer(.unauthorised(reason), pause: pause)
        case 400, 413: return ScrobbleAnswer(.refused(reason), pause: pause)
        case 429: return ScrobbleAnswer(.later(reason, after: resetIn), pause: pause)
        default: return ScrobbleAnswer(.later(reason, after: nil), pause: pause)
        }
    }

    enum ListenType: String {
        case playingNow = "playing_now"
        case single
        case `import`
    }

    private func request(_ type: ListenType, _ listens: [JSONValue]) -> HTTPExchange.Request {
        let body = JSONValue.object([("listen_type", .string(type.rawValue)), ("payload", .array(listens))])
        return HTTPExchange.Request(
            url: root.trimmingSuffix("/") + "/1/submit-listens",
            headers: ["Authorization: Token \(token)", "Content-Type: application/json"],
            body: body.serializedBytes)
    }

    /// One listen as the documentation's payload describes it; `playing_now` has no `listened_at`.
    static func payload(_ listen: Listen, type: ListenType) -> JSONValue {
        var info: [(String, JSONValue)] = []
        if listen.duration > 0 { info.append(("duration_ms", .number((listen.duration * 1000).rounded()))) }
        if let number = listen.trackNumber { info.append(("tracknumber", .number(Double(number)))) }
        let identifiers: [(String, String)] = [
            ("recording_mbid", "musicBrainzTrackID"), ("track_mbid", "musicBrainzReleaseTrackID"),
            ("release_mbid", "musicBrainzAlbumID"), ("release_group_mbid", "musicBrainzReleaseGroupID"),
        ]
        for (name, key) in identifiers {
            if let id = listen.musicBrainzIDs(key).first { info.append((name, .string(id))) }
        }
        let artistIDs = listen.musicBrainzIDs("musicBrainzArtistID")
        if !artistIDs.isEmpty { info.append(("artist_mbids", .array(artistIDs.map(JSONValue.string)))) }
        if let isrc = listen.identifiers["isrc"] { info.append(("isrc", .string(isrc))) }
        info += [
            ("media_player", .string("playbackd")), ("media_player_version", .string(PlaybackdVersion.current)),
            ("submission_client", .string("playbackd")),
            ("submission_client_version", .string(PlaybackdVersion.current)),
        ]
        var metadata: [(String, JSONValue)] = [
            ("artist_name", .string(listen.artists.joined(separator: ", "))),
            ("track_name", .string(listen.title ?? "")),
        ]
        if let album = listen.album, !album.isEmpty { metadata.append(("release_name", .string(album))) }
        metadata.append(("additional_info", .object(info)))
        let track: (String, JSONValue) = ("track_metadata", .object(metadata))
        guard type != .playingNow else { return .object([track]) }
        return .object([("listened_at", .number(listen.listenedAt.rounded(.down))), track])
    }

    /// The server's words for a failure: its JSON `error`, else the status.
    private static func reason(_ reply: HTTPExchange.Reply) -> String {
        let error = (try? JSONParser.parse(reply.body))?["error"]?.stringValue
        return "HTTP \(reply.status)" + (error.map { ": \($0)" } ?? "")
    }
}

extension String {
    /// Without `suffix` at its end, as often as it is there.
    func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
