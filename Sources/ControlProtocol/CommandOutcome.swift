import PlaybackModel

/// What a command did, in domain terms: the daemon's service answers every command with one
/// (or a `CommandFailure`), each front end writes it in its own form, and `playbackctl` reads
/// the socket's form back into the same type (`CommandOutcome(json:kind:)`).
public enum CommandOutcome: Equatable, Sendable {
    /// Carried out; nothing to report.
    case done
    /// Where a seek or skip landed, in seconds into the item.
    case position(Double)
    case nowPlaying(NowPlaying)
    case commands(CommandAvailability)
    case queuePage(QueuePage)
    case enqueued(EnqueueOutcome)
    /// The equalizer, and the preset names when asked for them.
    case equalizer(Equalizer, presets: [String]?)
    /// How many items `remove` took out, and how many are left.
    case removed(count: Int, queueCount: Int)
    /// The current item's chapters.
    case chapters([Chapter])
    /// Every bookmark, newest first.
    case bookmarks([Bookmark])
    /// The current item's phrases as far as they are known.
    case phrases(PhraseList)
    /// A page of a library query's results.
    case library(LibraryPage)
    case libraryStatus(LibraryStatus)
    /// A page of the files the library could not read, and how many there are.
    case libraryFailures([LibraryFailure], total: Int)
    /// A page of the listening history.
    case listeningHistory(ListenPage)
    /// How each scrobbling service stands.
    case scrobbleStatus([ScrobbleState])
    /// A step of a service's authorisation.
    case scrobbleLogin(ScrobbleLogin)

    /// Which case a command's successful reply is: declared with the command
    /// (`CommandSpec.replies`), so a client knows what it reads without looking at the keys.
    public enum Kind: Sendable, Equatable {
        case done, position, nowPlaying, commands, queuePage, enqueued, equalizer, removed, chapters, bookmarks, phrases
        case library, libraryStatus, libraryFailures, listeningHistory, scrobbleStatus, scrobbleLogin

        /// What a successful reply of this kind holds besides `status` and `id`, for the
        /// protocol reference.
        public var summary: String {
            switch self {
            case .done: "nothing besides the status."
            case .position: "`position`, the seconds into the item where it landed."
            case .nowPlaying: "`nowPlaying`, the snapshot."
            case .commands: "`commands`, every remote command with `enabled` (and its intervals or rates)."
            case .queuePage: "`currentIndex`, `count`, `offset`, `repeatMode`, `shuffleMode` and `items`."
            case .enqueued:
                "`added` (the new items' ids), `rejected` (each `path` with its `reason`) and `queueCount`;"
                    + " a failed enqueue still has `added` and `rejected`."
            case .equalizer: "`equalizer`, the curve; `presets`, the preset names, when asked for the equalizer."
            case .removed: "`removed`, the items taken out, and `queueCount`."
            case .chapters: "`chapters`, each with `start` and `end` (seconds into the item) and `title`."
            case .phrases:
                "`phrases`, each with `start` and `end` (seconds into the item), and `complete`, whether the analysis has finished (until then the list may grow and change)."
            case .bookmarks:
                "`bookmarks`, newest first, each with `path`, `title`, `position`, `duration` and `saved` (seconds since the epoch)."
            case .library:
                "`items` (songs: `id`, the track fields, `path`, `artists`, `playCount`, `skipCount`, `lastPlayed`, `dateAdded`, `rating`; albums: `id`, `album`, `albumArtist`, `year`, `songCount`, `duration`, `artworkURL`; names: `id`, `name`, `songCount`, `albumCount`) and `total`, the results in all."
            case .libraryStatus:
                "`library`: `state` (`idle` or `scanning`), `songs`, `albums`, `artists`, `scanned` and `toRead` (files the scan has read, and will read in all), `failed`, `updatedAt` (seconds since the epoch), `roots`, and `measured` and `toMeasure` (songs the loudness analysis has done, and has still to do in the pass running)."
            case .libraryFailures: "`failures`, each with `path` and `reason`, and `total`."
            case .listeningHistory:
                "`listens`, newest first, each with `listenedAt` (seconds since the epoch), `seconds` heard and `ending` (`finished`, `skipped`, `stopped`, `removed`, `replaced`; both absent while under way), `listen` and `practice` (booleans), `assetURL`, `title`, `artists`, `album`, `albumArtist`, `trackNumber`, `duration` and the identifiers tagged (`musicBrainzTrackID`, `musicBrainzReleaseTrackID`, `musicBrainzAlbumID`, `musicBrainzArtistID`, `musicBrainzReleaseGroupID`, `isrc`); and `total`, the hearings in the range."
            case .scrobbleStatus:
                "`services`, each with `service` (`listenbrainz`, `lastfm`), `enabled`, `authorised`, `pending` (listens it has not had), `setAside` (listens it refused for good), `lastSent` (seconds since the epoch) and `lastError` (absent once a request succeeds)."
            case .scrobbleLogin:
                "`authorised`; the first step adds `url`, the page where the user allows playbackd, and `token`, to name in the next step."
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .done: .done
        case .position: .position
        case .nowPlaying: .nowPlaying
        case .commands: .commands
        case .queuePage: .queuePage
        case .enqueued: .enqueued
        case .equalizer: .equalizer
        case .removed: .removed
        case .chapters: .chapters
        case .bookmarks: .bookmarks
        case .phrases: .phrases
        case .library: .library
        case .libraryStatus: .libraryStatus
        case .libraryFailures: .libraryFailures
        case .listeningHistory: .listeningHistory
        case .scrobbleStatus: .scrobbleStatus
        case .scrobbleLogin: .scrobbleLogin
        }
    }
}

/// One page of the queue, in its own order.
public struct QueuePage: Equatable, Sendable {
    public var currentIndex: Int?
    public var count: Int
    public var offset: Int
    public var repeatMode: RepeatMode
    public var shuffleMode: ShuffleMode
    public var items: [QueueItem]

    public init(
        currentIndex: Int?, count: Int, offset: Int, repeatMode: RepeatMode, shuffleMode: ShuffleMode,
        items: [QueueItem]
    ) {
        self.currentIndex = currentIndex
        self.count = count
        self.offset = offset
        self.repeatMode = repeatMode
        self.shuffleMode = shuffleMode
        self.items = items
    }
}

/// What an `enqueue` added and turned away.
public struct EnqueueOutcome: Equatable, Sendable {
    public var added: [UInt64]
    public var rejected: [Rejection]
    /// The queue's length after the enqueue; nil when it failed.
    public var queueCount: Int?

    public init(added: [UInt64], rejected: [Rejection], queueCount: Int? = nil) {
        self.added = added
        self.rejected = rejected
        self.queueCount = queueCount
    }
}

/// A path that was not enqueued, and why.
public struct Rejection: Error, Equatable, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
