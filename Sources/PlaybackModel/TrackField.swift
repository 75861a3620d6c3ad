/// One field of a track, declared once: its key on the wire, in the resume state and in
/// templates, how it is stored in `TrackMetadata`, where a probe reads it from the tags, and
/// the MPRIS `Metadata` entry it maps to. The snapshot and queue codecs, the resume state, the
/// template fields, the tag reader and the docs all follow from `TrackField.all`.
///
/// To add a field: a stored property on `TrackMetadata`, then one entry in `all`.
///
/// A class: the codecs walk `all` for every item and every snapshot, and a struct of this size
/// (strings, closures) was copied and destroyed at each step (a third of reading a state file).
public final class TrackField: Sendable {
    /// How the field is stored in `TrackMetadata`.
    public enum Storage: Sendable {
        case requiredText(Slot<String>)
        case text(Slot<String?>)
        case number(Slot<Int?>)
        case requiredNumber(Slot<Int>)
        case seconds(Slot<Double>)
        case decimal(Slot<Double?>)
        case path(Slot<String?>)
    }

    /// Where a field lives in `TrackMetadata`: a reader and a writer. Not a key path: the
    /// Swift runtime builds each key path object at its first use, which costs a short-lived
    /// command such as `playbackctl status` more than the rest of its work.
    public struct Slot<Value>: Sendable {
        let get: @Sendable (TrackMetadata) -> Value
        let set: @Sendable (inout TrackMetadata, Value) -> Void

        init(
            _ get: @escaping @Sendable (TrackMetadata) -> Value,
            _ set: @escaping @Sendable (inout TrackMetadata, Value) -> Void
        ) {
            self.get = get
            self.set = set
        }
    }

    public struct MPRISKey: Sendable, Equatable {
        /// The key, e.g. `xesam:albumArtist`.
        public let name: String
        /// Whether MPRIS wants a string array (`as`) rather than one value.
        public let isList: Bool
    }

    /// The key in snapshots, queue items and templates (`albumArtist`).
    public let key: String
    /// The key in the resume state (the same, except for paths, which are not URLs there).
    public let stateKey: String
    public let storage: Storage
    /// Where a probe reads it; nil when no tag holds it.
    public let source: TagSource?
    /// The MPRIS entry; nil when MPRIS has none.
    public let mpris: MPRISKey?
    /// Sent in every snapshot with an item (as null when unknown), rather than only when known.
    public let isAlwaysSent: Bool
    /// An identifier of the recording or its release (MusicBrainz's, the ISRC): kept with each
    /// hearing in the listening history, for the services a listen is sent to.
    public let isIdentifier: Bool
    /// Measured by the library's loudness analysis, not read from the file's tags.
    public let isMeasured: Bool
    /// What it is, for the template help and the docs.
    public let summary: String

    init(
        _ key: String, stateKey: String? = nil, _ storage: Storage, source: TagSource? = nil,
        mpris: String? = nil, mprisList: Bool = false, alwaysSent: Bool = false, identifier: Bool = false,
        measured: Bool = false, _ summary: String
    ) {
        self.isIdentifier = identifier
        self.isMeasured = measured
        self.key = key
        self.stateKey = stateKey ?? key
        self.storage = storage
        self.source = source
        self.mpris = mpris.map { MPRISKey(name: $0, isList: mprisList) }
        self.isAlwaysSent = alwaysSent
        self.summary = summary
    }
}

extension TrackField {
    /// The identifiers among them (`isIdentifier`).
    public static let identifiers = all.filter(\.isIdentifier)

    /// Every track field, in wire order.
    public static let all: [TrackField] = [
        TrackField(
            "title", .requiredText(.init({ $0.title }, { $0.title = $1 })), source: .summary(.title),
            mpris: "xesam:title", alwaysSent: true,
            "the item's title (its file name when untagged)"),
        TrackField(
            "artist", .text(.init({ $0.artist }, { $0.artist = $1 })), source: .summary(.artist), mpris: "xesam:artist",
            mprisList: true,
            alwaysSent: true, "the artist, when tagged"),
        TrackField(
            "album", .text(.init({ $0.album }, { $0.album = $1 })), source: .summary(.album), mpris: "xesam:album",
            alwaysSent: true,
            "the album, when tagged; a live stream's station (icy-name)"),
        TrackField(
            "duration", .seconds(.init({ $0.duration }, { $0.duration = $1 })), mpris: "mpris:length", alwaysSent: true,
            "the item's duration; null for a live stream, which has none"),
        TrackField(
            "albumArtist", .text(.init({ $0.albumArtist }, { $0.albumArtist = $1 })), source: .frame("TPE2"),
            mpris: "xesam:albumArtist",
            mprisList: true, "the album artist (TPE2), when tagged"),
        TrackField(
            "composer", .text(.init({ $0.composer }, { $0.composer = $1 })), source: .frame("TCOM"),
            mpris: "xesam:composer", mprisList: true,
            "the composer, when tagged"),
        TrackField(
            "genre", .text(.init({ $0.genre }, { $0.genre = $1 })), source: .genre, mpris: "xesam:genre",
            mprisList: true,
            "the genre, when tagged"),
        TrackField("year", .number(.init({ $0.year }, { $0.year = $1 })), source: .year, "the year, when tagged"),
        TrackField(
            "trackNumber", .number(.init({ $0.trackNumber }, { $0.trackNumber = $1 })),
            source: .number(ofFrame: "TRCK"), mpris: "xesam:trackNumber",
            "the track number, when tagged"),
        TrackField(
            "trackCount", .number(.init({ $0.trackCount }, { $0.trackCount = $1 })), source: .count(ofFrame: "TRCK"),
            "the album's track count, when tagged"),
        TrackField(
            "discNumber", .number(.init({ $0.discNumber }, { $0.discNumber = $1 })), source: .number(ofFrame: "TPOS"),
            mpris: "xesam:discNumber",
            "the disc number, when tagged"),
        TrackField(
            "discCount", .number(.init({ $0.discCount }, { $0.discCount = $1 })), source: .count(ofFrame: "TPOS"),
            "the disc count, when tagged"),
        TrackField(
            "artworkURL", stateKey: "artworkPath", .path(.init({ $0.artworkPath }, { $0.artworkPath = $1 })),
            mpris: "mpris:artUrl",
            "a file URL of the cover (embedded picture or cover.jpg), when there is one"),
        TrackField(
            "replayGainTrackGain", .decimal(.init({ $0.replayGainTrackGain }, { $0.replayGainTrackGain = $1 })),
            source: .replayGain("REPLAYGAIN_TRACK_GAIN"),
            "the ReplayGain track gain in dB, when tagged"),
        TrackField(
            "replayGainTrackPeak", .decimal(.init({ $0.replayGainTrackPeak }, { $0.replayGainTrackPeak = $1 })),
            source: .replayGain("REPLAYGAIN_TRACK_PEAK"),
            "the ReplayGain track peak (1 is full scale), when tagged"),
        TrackField(
            "replayGainAlbumGain", .decimal(.init({ $0.replayGainAlbumGain }, { $0.replayGainAlbumGain = $1 })),
            source: .replayGain("REPLAYGAIN_ALBUM_GAIN"),
            "the ReplayGain album gain in dB, when tagged"),
        TrackField(
            "replayGainAlbumPeak", .decimal(.init({ $0.replayGainAlbumPeak }, { $0.replayGainAlbumPeak = $1 })),
            source: .replayGain("REPLAYGAIN_ALBUM_PEAK"),
            "the ReplayGain album peak (1 is full scale), when tagged"),
        TrackField(
            "loudness", .decimal(.init({ $0.loudness }, { $0.loudness = $1 })), measured: true,
            "the integrated loudness in LUFS (EBU R128), when the library measured it and it is not silent"),
        TrackField(
            "peak", stateKey: "loudnessPeak", .decimal(.init({ $0.loudnessPeak }, { $0.loudnessPeak = $1 })),
            measured: true,
            "the sample peak (1 is full scale), when the library measured the loudness"),
        TrackField(
            "albumLoudness", .decimal(.init({ $0.albumLoudness }, { $0.albumLoudness = $1 })), measured: true,
            "the album's loudness in LUFS, its tracks measured together, when the library measured it"),
        TrackField(
            "sampleRate", .requiredNumber(.init({ $0.sampleRate }, { $0.sampleRate = $1 })), "the sample rate in Hz"),
        TrackField("channels", .requiredNumber(.init({ $0.channels }, { $0.channels = $1 })), "the number of channels"),
        TrackField(
            "bitsPerSample", .number(.init({ $0.bitsPerSample }, { $0.bitsPerSample = $1 })),
            "the size of the samples played: 16, or 32 for sources of more than 16 bits (24-bit FLAC, ALAC, WAV)"),
        TrackField(
            "musicBrainzTrackID", .text(.init({ $0.musicBrainzTrackID }, { $0.musicBrainzTrackID = $1 })),
            source: .userText(id3: "MusicBrainz Track Id", vorbis: "MUSICBRAINZ_TRACKID"), identifier: true,
            "the MusicBrainz recording's id, when tagged (an MP3's `UFID` frame is not read)"),
        TrackField(
            "musicBrainzReleaseTrackID",
            .text(.init({ $0.musicBrainzReleaseTrackID }, { $0.musicBrainzReleaseTrackID = $1 })),
            source: .userText(id3: "MusicBrainz Release Track Id", vorbis: "MUSICBRAINZ_RELEASETRACKID"),
            identifier: true,
            "the MusicBrainz track's id (the recording on this release), when tagged"),
        TrackField(
            "musicBrainzAlbumID", .text(.init({ $0.musicBrainzAlbumID }, { $0.musicBrainzAlbumID = $1 })),
            source: .userText(id3: "MusicBrainz Album Id", vorbis: "MUSICBRAINZ_ALBUMID"), identifier: true,
            "the MusicBrainz release's id, when tagged"),
        TrackField(
            "musicBrainzArtistID", .text(.init({ $0.musicBrainzArtistID }, { $0.musicBrainzArtistID = $1 })),
            source: .userText(id3: "MusicBrainz Artist Id", vorbis: "MUSICBRAINZ_ARTISTID"), identifier: true,
            "the MusicBrainz artist's id (the first, when several are tagged), when tagged"),
        TrackField(
            "musicBrainzReleaseGroupID",
            .text(.init({ $0.musicBrainzReleaseGroupID }, { $0.musicBrainzReleaseGroupID = $1 })),
            source: .userText(id3: "MusicBrainz Release Group Id", vorbis: "MUSICBRAINZ_RELEASEGROUPID"),
            identifier: true,
            "the MusicBrainz release group's id, when tagged"),
        TrackField(
            "isrc", .text(.init({ $0.isrc }, { $0.isrc = $1 })), source: .frame("TSRC"), identifier: true,
            "the recording's ISRC, when tagged"),
    ]
}

/// Where the tag reader finds a field.
public enum TagSource: Sendable, Equatable {
    /// One of the text fields libmpg123 summarizes from ID3v2, else ID3v1's.
    public enum Summary: Sendable, Equatable { case title, artist, album }

    case summary(Summary)
    /// An ID3v2 text frame by its 2.3/2.4 name (libmpg123 promotes 2.2's three-letter names).
    case frame(String)
    /// `TCON` with ID3v1 genre numbers resolved, else ID3v1's genre byte.
    case genre
    /// The year a date starts with: `TDRC`, `TYER`, else ID3v1's year.
    case year
    /// The number of an `N/M` frame (`TRCK`, `TPOS`); for `TRCK`, else ID3v1.1's track.
    case number(ofFrame: String)
    /// The count of an `N/M` frame.
    case count(ofFrame: String)
    /// A ReplayGain value from the `TXXX` frame with this description (matched without regard
    /// to case; `-6.20 dB` reads as -6.2).
    case replayGain(String)
    /// A text taggers keep under a name of their own (MusicBrainz Picard's identifiers): the
    /// `TXXX` frame with the description `id3` (matched without regard to case), the Vorbis
    /// comment `vorbis`, MP4's freeform atom `----:com.apple.iTunes:` and `id3`.
    case userText(id3: String, vorbis: String)
}

/// A field's value, typed by its storage.
public enum TrackFieldValue: Sendable, Equatable {
    case text(String)
    case number(Int)
    case seconds(Double)
    case decimal(Double)
}

extension TrackField {
    /// The field's value in `metadata`; nil when it has none. A path is its absolute path.
    public func value(in metadata: TrackMetadata) -> TrackFieldValue? {
        switch storage {
        case .requiredText(let slot): .text(slot.get(metadata))
        case .text(let slot), .path(let slot): slot.get(metadata).map(TrackFieldValue.text)
        case .number(let slot): slot.get(metadata).map(TrackFieldValue.number)
        case .requiredNumber(let slot): .number(slot.get(metadata))
        case .seconds(let slot): slot.get(metadata) > 0 ? .seconds(slot.get(metadata)) : nil
        case .decimal(let slot): slot.get(metadata).map(TrackFieldValue.decimal)
        }
    }

    /// Stores `value` in `metadata`; a value of the wrong kind, or nil for a required field,
    /// leaves it as it is and returns false.
    @discardableResult
    public func set(_ value: TrackFieldValue?, in metadata: inout TrackMetadata) -> Bool {
        storage.set(value, in: &metadata)
    }

    /// Whether every item has the field.
    public var isRequired: Bool {
        switch storage {
        case .requiredText, .requiredNumber: true
        case .text, .number, .path, .decimal, .seconds: false
        }
    }
}

extension TrackField.Storage {
    /// `number` as a field's whole number: nil when it is not finite, not whole, or beyond
    /// 10^15 either way.
    public static func wholeNumber(_ number: Double) -> Int? {
        // Compared after the bound, which also refuses NaN and the infinities: then the
        // conversion cannot trap, and a whole number converts back to itself.
        abs(number) < 1e15 && Double(Int(number)) == number ? Int(number) : nil
    }

    /// `TrackField.set(_:in:)`, for a reader of many values that keeps only each column's storage.
    @discardableResult
    public func set(_ value: TrackFieldValue?, in metadata: inout TrackMetadata) -> Bool {
        switch (self, value) {
        case (.requiredText(let slot), .text(let text)?): slot.set(&metadata, text)
        case (.text(let slot), .text(let text)?), (.path(let slot), .text(let text)?): slot.set(&metadata, text)
        case (.text(let slot), nil), (.path(let slot), nil): slot.set(&metadata, nil)
        case (.number(let slot), .number(let number)?): slot.set(&metadata, number)
        case (.number(let slot), nil): slot.set(&metadata, nil)
        case (.requiredNumber(let slot), .number(let number)?): slot.set(&metadata, number)
        case (.seconds(let slot), .seconds(let seconds)?): slot.set(&metadata, seconds)
        case (.decimal(let slot), .decimal(let value)?): slot.set(&metadata, value)
        case (.decimal(let slot), nil): slot.set(&metadata, nil)
        default: return false
        }
        return true
    }
}
