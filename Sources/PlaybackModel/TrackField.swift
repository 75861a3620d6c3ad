/// One field of a track, declared once: its key on the wire, in the resume state and in
/// templates, how it is stored in `TrackMetadata`, where a probe reads it from the tags, and
/// the MPRIS `Metadata` entry it maps to. The snapshot and queue codecs, the resume state, the
/// template fields, the tag reader and the docs all follow from `TrackField.all`.
///
/// To add a field: a stored property on `TrackMetadata`, then one entry in `all`.
public struct TrackField: Sendable {
    /// How the field is stored in `TrackMetadata`.
    public enum Storage: Sendable {
        /// Text that every item has (the title falls back to the file name).
        case requiredText(WritableKeyPath<TrackMetadata, String> & Sendable)
        /// Text a tag may have.
        case text(WritableKeyPath<TrackMetadata, String?> & Sendable)
        /// A whole number a tag may have.
        case number(WritableKeyPath<TrackMetadata, Int?> & Sendable)
        /// A whole number that every item has (its audio format).
        case requiredNumber(WritableKeyPath<TrackMetadata, Int> & Sendable)
        /// Seconds that every item has.
        case seconds(WritableKeyPath<TrackMetadata, Double> & Sendable)
        /// A number with a fraction a tag may have (a gain in dB, a peak).
        case decimal(WritableKeyPath<TrackMetadata, Double?> & Sendable)
        /// An absolute path, sent on the wire as a `file://` URL.
        case path(WritableKeyPath<TrackMetadata, String?> & Sendable)
    }

    /// The MPRIS `Metadata` entry of a field.
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
    /// What it is, for the template help and the docs.
    public let summary: String

    init(
        _ key: String, stateKey: String? = nil, _ storage: Storage, source: TagSource? = nil,
        mpris: String? = nil, mprisList: Bool = false, alwaysSent: Bool = false, _ summary: String
    ) {
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
    /// Every track field, in wire order.
    public static let all: [TrackField] = [
        TrackField(
            "title", .requiredText(\.title), source: .summary(.title), mpris: "xesam:title", alwaysSent: true,
            "the item's title (its file name when untagged)"),
        TrackField(
            "artist", .text(\.artist), source: .summary(.artist), mpris: "xesam:artist", mprisList: true,
            alwaysSent: true, "the artist, when tagged"),
        TrackField(
            "album", .text(\.album), source: .summary(.album), mpris: "xesam:album", alwaysSent: true,
            "the album, when tagged"),
        TrackField(
            "duration", .seconds(\.duration), mpris: "mpris:length", alwaysSent: true, "the item's duration"),
        TrackField(
            "albumArtist", .text(\.albumArtist), source: .frame("TPE2"), mpris: "xesam:albumArtist",
            mprisList: true, "the album artist (TPE2), when tagged"),
        TrackField(
            "composer", .text(\.composer), source: .frame("TCOM"), mpris: "xesam:composer", mprisList: true,
            "the composer, when tagged"),
        TrackField(
            "genre", .text(\.genre), source: .genre, mpris: "xesam:genre", mprisList: true,
            "the genre, when tagged"),
        TrackField("year", .number(\.year), source: .year, "the year, when tagged"),
        TrackField(
            "trackNumber", .number(\.trackNumber), source: .number(ofFrame: "TRCK"), mpris: "xesam:trackNumber",
            "the track number, when tagged"),
        TrackField(
            "trackCount", .number(\.trackCount), source: .count(ofFrame: "TRCK"),
            "the album's track count, when tagged"),
        TrackField(
            "discNumber", .number(\.discNumber), source: .number(ofFrame: "TPOS"), mpris: "xesam:discNumber",
            "the disc number, when tagged"),
        TrackField("discCount", .number(\.discCount), source: .count(ofFrame: "TPOS"), "the disc count, when tagged"),
        TrackField(
            "artworkURL", stateKey: "artworkPath", .path(\.artworkPath), mpris: "mpris:artUrl",
            "a file URL of the cover (embedded picture or cover.jpg), when there is one"),
        TrackField(
            "replayGainTrackGain", .decimal(\.replayGainTrackGain), source: .replayGain("REPLAYGAIN_TRACK_GAIN"),
            "the ReplayGain track gain in dB, when tagged"),
        TrackField(
            "replayGainTrackPeak", .decimal(\.replayGainTrackPeak), source: .replayGain("REPLAYGAIN_TRACK_PEAK"),
            "the ReplayGain track peak (1 is full scale), when tagged"),
        TrackField(
            "replayGainAlbumGain", .decimal(\.replayGainAlbumGain), source: .replayGain("REPLAYGAIN_ALBUM_GAIN"),
            "the ReplayGain album gain in dB, when tagged"),
        TrackField(
            "replayGainAlbumPeak", .decimal(\.replayGainAlbumPeak), source: .replayGain("REPLAYGAIN_ALBUM_PEAK"),
            "the ReplayGain album peak (1 is full scale), when tagged"),
        TrackField("sampleRate", .requiredNumber(\.sampleRate), "the sample rate in Hz"),
        TrackField("channels", .requiredNumber(\.channels), "the number of channels"),
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
        case .requiredText(let key): .text(metadata[keyPath: key])
        case .text(let key), .path(let key): metadata[keyPath: key].map(TrackFieldValue.text)
        case .number(let key): metadata[keyPath: key].map(TrackFieldValue.number)
        case .requiredNumber(let key): .number(metadata[keyPath: key])
        case .seconds(let key): .seconds(metadata[keyPath: key])
        case .decimal(let key): metadata[keyPath: key].map(TrackFieldValue.decimal)
        }
    }

    /// Stores `value` in `metadata`; a value of the wrong kind, or nil for a required field,
    /// leaves it as it is and returns false.
    @discardableResult
    public func set(_ value: TrackFieldValue?, in metadata: inout TrackMetadata) -> Bool {
        switch (storage, value) {
        case (.requiredText(let key), .text(let text)?): metadata[keyPath: key] = text
        case (.text(let key), .text(let text)?), (.path(let key), .text(let text)?): metadata[keyPath: key] = text
        case (.text(let key), nil), (.path(let key), nil): metadata[keyPath: key] = nil
        case (.number(let key), .number(let number)?): metadata[keyPath: key] = number
        case (.number(let key), nil): metadata[keyPath: key] = nil
        case (.requiredNumber(let key), .number(let number)?): metadata[keyPath: key] = number
        case (.seconds(let key), .seconds(let seconds)?): metadata[keyPath: key] = seconds
        case (.decimal(let key), .decimal(let value)?): metadata[keyPath: key] = value
        case (.decimal(let key), nil): metadata[keyPath: key] = nil
        default: return false
        }
        return true
    }

    /// Whether every item has the field.
    public var isRequired: Bool {
        switch storage {
        case .requiredText, .requiredNumber, .seconds: true
        case .text, .number, .path, .decimal: false
        }
    }
}
