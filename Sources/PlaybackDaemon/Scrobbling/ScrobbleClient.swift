import PlaybackModel

/// One scrobbling service's API: the requests that tell it what plays and what was heard, and
/// what its answers mean. Values only: the `Scrobbler` makes the requests, keeps the cursor
/// and waits as an answer says.
protocol ScrobbleClient {
    /// The service's name in settings, replies and the history's cursors.
    var service: ScrobbleService { get }
    /// What tells one set of credentials from another (a refused set is not tried again).
    var credentialsKey: String { get }
    /// The most listens one submission carries.
    var batchLimit: Int { get }
    /// Why `listen` can never be sent (too large for the service); nil when it can.
    func unsendable(_ listen: Listen) -> String?
    /// The request that says `listen` is playing now.
    func nowPlaying(_ listen: Listen) -> HTTPExchange.Request
    /// The request that submits `listens` (one: a listen that just counted; more: a backlog).
    func submission(_ listens: [Listen]) -> HTTPExchange.Request
    /// What the answer to a request of `count` listens (0: now playing) says.
    func answer(_ reply: HTTPExchange.Reply, count: Int) -> ScrobbleAnswer
}

/// What a service's answer says about a request.
struct ScrobbleAnswer: Equatable {
    enum Verdict: Equatable {
        /// It took the listens, but those at these indexes, refused for good with the reason.
        case accepted(refused: [Int: String])
        /// It refused the request as invalid (its reason): one listen is set aside, more are
        /// sent again one by one to find which.
        case refused(String)
        /// The credentials are not (or no longer) accepted: the service stops until they change.
        case unauthorised(String)
        /// Not now (a server error, a limit): try again later, not before `after` seconds.
        case later(String, after: Double?)
    }

    var verdict: Verdict
    /// Seconds to wait before the next request whatever the verdict (a rate limit used up).
    var pause: Double?

    init(_ verdict: Verdict, pause: Double? = nil) {
        self.verdict = verdict
        self.pause = pause
    }
}

extension ScrobbleService {
    /// Its scrobbler's thread (a thread's name holds 15 bytes).
    var threadName: String {
        switch self {
        case .listenbrainz: "pbd-scrobble-lb"
        case .lastfm: "pbd-scrobble-fm"
        }
    }
}

extension Listen {
    /// The item heard from `began`, as a service is told it plays now (not a listen yet).
    init(playing item: QueueItem, began: Double) {
        let metadata = item.metadata
        self.init(
            listenedAt: began, seconds: nil, ending: nil, isListen: false, isPractice: false, path: item.path,
            title: metadata.title, artists: metadata.allArtists, album: metadata.album,
            albumArtist: metadata.albumArtist, trackNumber: metadata.trackNumber, duration: metadata.duration)
        for field in TrackField.identifiers {
            if case .text(let value)? = field.value(in: metadata) { identifiers[field.key] = value }
        }
    }

    /// Whether a service can be told of it: it has a title and an artist.
    var isScrobblable: Bool { !(title ?? "").isEmpty && !artists.isEmpty }

    /// The MusicBrainz identifiers in the value of `key`: a tag may hold several (the artists').
    func musicBrainzIDs(_ key: String) -> [String] {
        guard let value = identifiers[key] else { return [] }
        return value.split { $0 == "/" || $0 == ";" || $0 == "," || $0 == " " }.map(String.init).filter {
            $0.count == 36
        }
    }
}
