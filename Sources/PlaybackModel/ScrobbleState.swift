/// The services playbackd scrobbles to (docs/scrobbling.md).
public enum ScrobbleService: String, CaseIterable, Sendable {
    case listenbrainz
    case lastfm
}

/// Where `scrobbleLogin` stands: the address to approve and the token it approves, or whether
/// the approval came.
public struct ScrobbleLogin: Sendable, Equatable {
    /// The page where the user allows playbackd (the first step); nil afterwards.
    public var url: String?
    /// What the next `scrobbleLogin` names to ask whether it was allowed.
    public var token: String?
    /// Whether the session is kept: the service is authorised.
    public var authorised: Bool

    public init(url: String?, token: String?, authorised: Bool) {
        self.url = url
        self.token = token
        self.authorised = authorised
    }
}

/// How one scrobbling service stands (`scrobbleStatus`).
public struct ScrobbleState: Sendable, Equatable {
    /// Its name: `listenbrainz` or `lastfm`.
    public var service: String
    /// Whether it is configured (its settings name the credentials' files).
    public var enabled: Bool
    /// Whether its credentials were read and the server has not refused them.
    public var authorised: Bool
    /// Listens it has not had yet.
    public var pending: Int
    /// Listens it refused as invalid, set aside for good.
    public var setAside: Int
    /// When it last took listens, seconds since the epoch.
    public var lastSent: Double?
    /// What went wrong last, while it still stands; nil once a request succeeds.
    public var lastError: String?

    public init(
        service: String, enabled: Bool, authorised: Bool = false, pending: Int = 0, setAside: Int = 0,
        lastSent: Double? = nil, lastError: String? = nil
    ) {
        self.service = service
        self.enabled = enabled
        self.authorised = authorised
        self.pending = pending
        self.setAside = setAside
        self.lastSent = lastSent
        self.lastError = lastError
    }
}
