/// One hearing of an item in the listening history: when it began, how much of it was heard and
/// how it ended, the track as it was tagged then, and whether it counts as a listen (the rule
/// ListenBrainz and Last.fm document: an item at least 30 s long, heard for half its length or
/// 4 minutes, whichever comes first; practice never counts).
public struct Listen: Sendable, Equatable {
    /// Seconds since the epoch at which it began to be heard (ListenBrainz's `listened_at`).
    public var listenedAt: Double
    /// The item's own seconds heard; nil while the hearing is under way.
    public var seconds: Double?
    /// How the hearing ended (`finished`, `skipped`, `stopped`, `removed`, `replaced`); nil while
    /// it is under way.
    public var ending: String?
    public var isListen: Bool
    /// Heard in phrase mode or an A-B loop: recorded, never a listen.
    public var isPractice: Bool
    public var path: String
    public var title: String?
    /// Every artist, the first the main one.
    public var artists: [String]
    public var album: String?
    public var albumArtist: String?
    public var trackNumber: Int?
    /// The item's length, seconds; 0 for a live stream.
    public var duration: Double
    /// Its identifiers, by their field's key (`TrackField.identifiers`: MusicBrainz's, the ISRC),
    /// as tagged when it was heard.
    public var identifiers: [String: String] = [:]

    public init(
        listenedAt: Double, seconds: Double?, ending: String?, isListen: Bool, isPractice: Bool, path: String,
        title: String?, artists: [String], album: String?, albumArtist: String?, trackNumber: Int?, duration: Double
    ) {
        self.listenedAt = listenedAt
        self.seconds = seconds
        self.ending = ending
        self.isListen = isListen
        self.isPractice = isPractice
        self.path = path
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.duration = duration
    }
}

/// A page of the listening history, newest first, and how many hearings the request's range holds.
public struct ListenPage: Sendable, Equatable {
    public var listens: [Listen]
    public var total: Int

    public init(listens: [Listen], total: Int) {
        self.listens = listens
        self.total = total
    }
}
