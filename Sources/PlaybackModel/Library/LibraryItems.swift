/// What the user's listening made of a song: kept in the state directory, so it survives a
/// rebuilt index.
public struct PlayStatistics: Sendable, Equatable {
    public var playCount: Int
    public var skipCount: Int
    /// Seconds since the epoch; nil until a play is counted.
    public var lastPlayed: Double?
    /// When the library first found the song, seconds since the epoch.
    public var dateAdded: Double
    /// 0 (none) to 5.
    public var rating: Int

    public init(playCount: Int = 0, skipCount: Int = 0, lastPlayed: Double? = nil, dateAdded: Double, rating: Int = 0) {
        self.playCount = playCount
        self.skipCount = skipCount
        self.lastPlayed = lastPlayed
        self.dateAdded = dateAdded
        self.rating = rating
    }
}

/// A song of the library (`MPMediaItem`): its persistent id, its file, its track fields, every
/// value of a multi-valued artist tag, and its play statistics.
public struct LibrarySong: Sendable, Equatable {
    /// Stable across rescans, renames and moves inside the library, and restarts.
    public var id: String
    public var path: String
    public var metadata: TrackMetadata
    /// Every artist the tags name (`metadata.artist` is the first).
    public var artists: [String]
    public var statistics: PlayStatistics
    /// When the file was last modified, milliseconds since the epoch; nil when not read.
    public var modified: Int64?

    public init(
        id: String, path: String, metadata: TrackMetadata, artists: [String], statistics: PlayStatistics,
        modified: Int64? = nil
    ) {
        self.id = id
        self.path = path
        self.metadata = metadata
        self.artists = artists
        self.statistics = statistics
        self.modified = modified
    }
}

/// An album (`MPMediaItemCollection`): the songs that share an album title and an album artist
/// (the artist when none is tagged), so a compilation is one album and two albums of one title
/// by different artists are two.
public struct LibraryAlbum: Sendable, Equatable {
    public var id: String
    public var album: String
    public var albumArtist: String?
    public var year: Int?
    public var songCount: Int
    /// Seconds.
    public var duration: Double
    /// A cover file beside its songs, when there is one.
    public var artworkPath: String?

    public init(
        id: String, album: String, albumArtist: String?, year: Int?, songCount: Int, duration: Double,
        artworkPath: String?
    ) {
        self.id = id
        self.album = album
        self.albumArtist = albumArtist
        self.year = year
        self.songCount = songCount
        self.duration = duration
        self.artworkPath = artworkPath
    }
}

/// An artist, album artist, genre or composer, with how many songs and albums carry it.
public struct LibraryName: Sendable, Equatable {
    public var id: String
    public var name: String
    public var songCount: Int
    public var albumCount: Int

    public init(id: String, name: String, songCount: Int, albumCount: Int) {
        self.id = id
        self.name = name
        self.songCount = songCount
        self.albumCount = albumCount
    }
}

/// One page of a query's results, and how many there are in all.
public struct LibraryPage: Sendable, Equatable {
    public enum Items: Sendable, Equatable {
        case songs([LibrarySong])
        case albums([LibraryAlbum])
        case names([LibraryName])
    }

    public var items: Items
    public var total: Int

    public init(items: Items, total: Int) {
        self.items = items
        self.total = total
    }
}

/// Where the library stands.
public struct LibraryStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case idle, scanning
    }

    public var state: State
    public var songs: Int
    public var albums: Int
    public var artists: Int
    /// Files read by the scan running (or the last one).
    public var scanned: Int
    /// Files the scan running reads in all, once its walk is done (0 before, and when idle).
    public var toRead: Int
    /// Files that could not be read (`libraryFailures` lists them).
    public var failed: Int
    /// When the last scan ended, seconds since the epoch; nil before the first.
    public var updatedAt: Double?
    /// The library's folders.
    public var roots: [String]
    /// Songs the loudness analysis has done (docs/sound.md), one it could not decode included.
    public var measured: Int
    /// Songs the loudness analysis running has still to measure (0 when none runs).
    public var toMeasure: Int

    public init(
        state: State, songs: Int, albums: Int, artists: Int, scanned: Int, toRead: Int = 0, failed: Int,
        updatedAt: Double?, roots: [String], measured: Int = 0, toMeasure: Int = 0
    ) {
        self.measured = measured
        self.toMeasure = toMeasure
        self.toRead = toRead
        self.state = state
        self.songs = songs
        self.albums = albums
        self.artists = artists
        self.scanned = scanned
        self.failed = failed
        self.updatedAt = updatedAt
        self.roots = roots
    }
}

/// A file the library could not read, and why.
public struct LibraryFailure: Error, Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
