import ControlProtocol
import PlaybackModel

/// Last.fm's API 2.0 (and Libre.fm's, or any server of the same API): `track.updateNowPlaying`
/// and `track.scrobble` in batches of at most 50, each call signed with the API secret, as the
/// session key from the desktop authorisation flow (`LastFMAuthorization`) allows.
struct LastFMClient: ScrobbleClient {
    /// The most scrobbles one `track.scrobble` carries.
    static let maximumScrobbles = 50

    let signer: LastFMSigner
    let sessionKey: String

    var service: ScrobbleService { .lastfm }
    var credentialsKey: String { signer.apiKey + " " + signer.secret + " " + sessionKey }
    var batchLimit: Int { Self.maximumScrobbles }

    func unsendable(_ listen: Listen) -> String? { nil }

    func nowPlaying(_ listen: Listen) -> HTTPExchange.Request {
        signer.request("track.updateNowPlaying", Self.parameters(listen, index: nil) + [("sk", sessionKey)])
    }

    func submission(_ listens: [Listen]) -> HTTPExchange.Request {
        let parameters = listens.enumerated().flatMap { index, listen in Self.parameters(listen, index: index) }
        return signer.request("track.scrobble", parameters + [("sk", sessionKey)])
    }

    func answer(_ reply: HTTPExchange.Reply, count: Int) -> ScrobbleAnswer {
        let json = try? JSONParser.parse(reply.body)
        if let code = json?["error"]?.numberValue.map(Int.init) {
            let reason = "error \(code)" + (json?["message"]?.stringValue.map { ": \($0)" } ?? "")
            switch code {
            case 4, 9, 10, 13, 14, 15, 26: return ScrobbleAnswer(.unauthorised(reason))
            case 6, 7: return ScrobbleAnswer(.refused(reason))
            case 29: return ScrobbleAnswer(.later(reason, after: 60))
            default: return ScrobbleAnswer(.later(reason, after: nil))
            }
        }
        guard (200..<300).contains(reply.status), let json else {
            return ScrobbleAnswer(.later("HTTP \(reply.status)", after: nil))
        }
        guard count > 0 else { return ScrobbleAnswer(.accepted(refused: [:])) }
        // One scrobble is an object, several an array (the API's JSON follows its XML).
        let scrobbles = json["scrobbles"]?["scrobble"]
        let each = scrobbles?.arrayValue ?? scrobbles.map { [$0] } ?? []
        var refused: [Int: String] = [:]
        for (index, scrobble) in each.enumerated() {
            let ignored = scrobble["ignoredMessage"]
            guard let code = ignored?["code"]?.stringValue, code != "0" else { continue }
            if code == "5" { return ScrobbleAnswer(.later("the daily scrobble limit is reached", after: 3600)) }
            refused[index] = "ignored (code \(code))" + (ignored?["#text"]?.stringValue.map { ": \($0)" } ?? "")
        }
        return ScrobbleAnswer(.accepted(refused: refused))
    }

    /// A listen's parameters, `artist[3]` and so on in a batch (`index`), bare for now playing.
    static func parameters(_ listen: Listen, index: Int?) -> [(String, String)] {
        let name = { (key: String) in index.map { "\(key)[\($0)]" } ?? key }
        var parameters = [(name("artist"), listen.artists.first ?? ""), (name("track"), listen.title ?? "")]
        if index != nil { parameters.append((name("timestamp"), String(Int(listen.listenedAt)))) }
        if let album = listen.album, !album.isEmpty { parameters.append((name("album"), album)) }
        if let albumArtist = listen.albumArtist, !albumArtist.isEmpty {
            parameters.append((name("albumArtist"), albumArtist))
        }
        if let number = listen.trackNumber { parameters.append((name("trackNumber"), String(number))) }
        if listen.duration > 0 { parameters.append((name("duration"), String(Int(listen.duration.rounded())))) }
        if let mbid = listen.musicBrainzIDs("musicBrainzTrackID").first { parameters.append((name("mbid"), mbid)) }
        return parameters
    }
}

/// Signs Last.fm API calls: `api_sig` is the MD5 of every parameter but `format`, sorted by
/// name, each name followed by its value, and then the API secret.
struct LastFMSigner {
    /// The API root (`https://ws.audioscrobbler.com/2.0/`).
    let root: String
    let apiKey: String
    let secret: String

    /// A signed POST of `method` with `parameters`, answered in JSON.
    func request(_ method: String, _ parameters: [(String, String)]) -> HTTPExchange.Request {
        let signed = parameters + [("method", method), ("api_key", apiKey)]
        let form = (signed + [("api_sig", signature(signed)), ("format", "json")]).map {
            FormEncoding.escape($0.0) + "=" + FormEncoding.escape($0.1)
        }.joined(separator: "&")
        return HTTPExchange.Request(
            url: root, headers: ["Content-Type: application/x-www-form-urlencoded"], body: Array(form.utf8))
    }

    /// `api_sig` for `parameters`.
    func signature(_ parameters: [(String, String)]) -> String {
        let text =
            parameters.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            .map { $0.0 + $0.1 }.joined() + secret
        return MD5.hex(Array(text.utf8))
    }
}

/// `application/x-www-form-urlencoded`'s escaping.
enum FormEncoding {
    /// `text` with every byte but letters, digits and `-._~` as `%XX` (UTF-8).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return escaped
    }
}
