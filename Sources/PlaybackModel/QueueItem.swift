/// One playable entry of the queue: a file that was probed when it was enqueued.
///
/// Its path, track fields and file identity are held as one compact record (`ItemRecord`) and
/// decoded when read: a queue holds up to 100,000 items, and most are never looked at.
public struct QueueItem: Sendable, Equatable {
    /// Unique within one daemon run; stable while the item stays in the queue.
    public var id: UInt64
    /// 0 - 255: in a shuffled order, items of a higher priority play first (MPD's `prio`).
    public var priority: UInt8 = 0
    private var record: ItemRecord

    public init(id: UInt64, path: String, metadata: TrackMetadata, file: FileIdentity? = nil) {
        self.id = id
        record = ItemRecord(path: path, metadata: metadata, file: file)
    }

    /// An item read back from a file straight into its record, with no `TrackMetadata` or
    /// `String` made of it: `path` and a value for each field of `TrackField.all` (by its
    /// place there; nil where it has none). Nil when a value is not of its field's kind, a
    /// required field has none, the path is not one the queue holds (`isQueueable`) or the
    /// format is not playable (`hasPlayableFormat`): the caller reads such a line again to say
    /// what is wrong.
    public init?(id: UInt64, path: UnsafeBufferPointer<UInt8>, values: UnsafeBufferPointer<RawFieldValue?>) {
        guard Self.isQueueable(path: path), let record = ItemRecord(path: path, values: values) else { return nil }
        self.id = id
        self.record = record
    }

    /// Whether the queue holds an item of `path`: an absolute path, or a stream's URL.
    public static func isQueueable(path: String) -> Bool {
        var path = path
        return path.withUTF8 { isQueueable(path: $0) }
    }

    private static func isQueueable(path: UnsafeBufferPointer<UInt8>) -> Bool {
        path.first == UInt8(ascii: "/") || StreamURL.isStream(String(decoding: path, as: UTF8.self))
    }

    /// Absolute path of the audio file (or a stream's URL).
    public var path: String {
        get { record.path }
        set { record = ItemRecord(path: newValue, metadata: metadata, file: file) }
    }

    public var metadata: TrackMetadata {
        get { record.decoded.metadata }
        set { record = ItemRecord(path: path, metadata: newValue, file: file) }
    }

    /// The file's size and modification time when it was probed (nil for a URL, or until
    /// known): how a bookmark follows a file that was moved.
    public var file: FileIdentity? {
        get { record.file }
        set { record = ItemRecord(path: path, metadata: metadata, file: newValue) }
    }
}

/// What tells a file apart when its path changed: its size and modification time (a move with
/// `mv` keeps both).
public struct FileIdentity: Sendable, Hashable {
    public var size: Int64
    /// Milliseconds since the epoch.
    public var modified: Int64

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }
}

/// Descriptive fields of an item, read from its tags when it is probed.
public struct TrackMetadata: Sendable, Equatable {
    public var title: String
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var composer: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?
    public var trackCount: Int?
    public var discNumber: Int?
    public var discCount: Int?
    /// The cover image: an embedded picture written to the artwork directory, or a
    /// `cover.jpg` / `folder.jpg` beside the file. Set by the daemon when it probes the item.
    public var artworkPath: String?
    /// ReplayGain (ID3v2 `TXXX` frames): gains in dB, peaks as a fraction of full scale.
    public var replayGainTrackGain: Double?
    public var replayGainTrackPeak: Double?
    public var replayGainAlbumGain: Double?
    public var replayGainAlbumPeak: Double?
    /// Length in seconds (exact for files with a LAME/Xing header, estimated otherwise); 0 for
    /// a live stream, which has no length and cannot seek (`isSeekable`).
    public var duration: Double
    public var sampleRate: Int
    public var channels: Int
    /// The size of the samples played (16, or 32 for deeper sources); nil when not known (an
    /// item saved before it was recorded).
    public var bitsPerSample: Int?
    /// The item's chapters (`Chapter.normalized`: sorted, tiling the item); empty without.
    public var chapters: [Chapter] = []
    /// The values after the first of a multi-valued artist tag (a FLAC with two `ARTIST`
    /// comments); `artist` is the first. The library finds the song under each.
    public var otherArtists: [String] = []

    /// Every artist, the main one (`artist`) first.
    public var allArtists: [String] { (artist.map { [$0] } ?? []) + otherArtists }
    /// MusicBrainz Picard's identifiers and the ISRC, when tagged (`TrackField.all`).
    public var musicBrainzTrackID: String?
    public var musicBrainzReleaseTrackID: String?
    public var musicBrainzAlbumID: String?
    public var musicBrainzArtistID: String?
    public var musicBrainzReleaseGroupID: String?
    public var isrc: String?
    /// The integrated loudness the library measured (`loudness-analysis`), LUFS; nil when
    /// unmeasured or silent (`measuredLoudness` tells them apart).
    public var loudness: Double?
    /// The sample peak the library measured, full scale 1; nil when unmeasured.
    public var loudnessPeak: Double?
    /// The loudness of the song's album, its tracks measured together, LUFS.
    public var albumLoudness: Double?

    public init(
        title: String, artist: String? = nil, album: String? = nil,
        duration: Double, sampleRate: Int, channels: Int
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

extension TrackMetadata {
    /// The library's measure of the item (`loudness`, `loudnessPeak`, `albumLoudness`); nil
    /// when it has none.
    public var measuredLoudness: Loudness? {
        get { loudnessPeak.map { Loudness(integrated: loudness, peak: $0, album: albumLoudness) } }
        set { (loudness, loudnessPeak, albumLoudness) = (newValue?.integrated, newValue?.peak, newValue?.album) }
    }

    /// Whether the engine can play this format: a sample rate, 1 to 8 channels, and no
    /// negative duration.
    public var hasPlayableFormat: Bool { sampleRate > 0 && (1...8).contains(channels) && duration >= 0 }

    /// Whether a position in the item can be chosen: not in a live stream.
    public var isSeekable: Bool { duration > 0 }

    /// The frame `seconds` into the item, rounded to the nearest and clamped to the item.
    public func frame(at seconds: Double) -> Int {
        min(max(0, FrameTime.frames(seconds, rate: sampleRate)), FrameTime.frames(duration, rate: sampleRate))
    }

    /// Seconds into the item at `frame`.
    public func seconds(atFrame frame: Int) -> Double { FrameTime.seconds(frame, rate: sampleRate) }
}
