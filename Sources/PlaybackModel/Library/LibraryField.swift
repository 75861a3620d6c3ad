/// A field of a library song that a query can filter and sort by, declared once: the text and
/// number fields of `TrackField.all`, the file's path, and what the user's listening made (play
/// and skip counts, when last played, when added, the rating). The query parser, the
/// protocol reference and the index's columns follow from `LibraryField.all`.
public struct LibraryField: Sendable, Hashable {
    /// How the field compares.
    public enum Kind: Sendable, Hashable {
        /// Folded (case and diacritics) for `equalTo`, `contains` and `startsWith`.
        case text
        /// Whole numbers and seconds: `equalTo`, `atLeast`, `atMost`.
        case number
    }

    /// Its name in queries (`albumArtist`, `playCount`).
    public let name: String
    public let kind: Kind
    /// What it is, for the protocol reference.
    public let summary: String

    init(_ name: String, _ kind: Kind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }

    /// Every field: the track fields a tag holds (text and whole numbers) and the duration,
    /// then the song's own.
    public static let all: [LibraryField] =
        TrackField.all.compactMap { field -> LibraryField? in
            switch field.storage {
            case .requiredText, .text: LibraryField(field.key, .text, field.summary)
            case .number where field.source != nil, .seconds: LibraryField(field.key, .number, field.summary)
            default: nil
            }
        } + [
            LibraryField("path", .text, "the file's absolute path"),
            LibraryField("playCount", .number, "how many times it was heard (half its length, or 4 minutes)"),
            LibraryField("skipCount", .number, "how many times it was left for another item in its first 30 s"),
            LibraryField("lastPlayed", .number, "when a play was last counted, seconds since the epoch"),
            LibraryField("dateAdded", .number, "when the library first found it, seconds since the epoch"),
            LibraryField("modified", .number, "when the file was last modified, seconds since the epoch"),
            LibraryField("rating", .number, "the user's rating, 0 (none) to 5"),
        ]

    /// Any part of any text tag, folded (MPD's `any` with `contains`): for MPD's clients. Not
    /// among `all`: the native search is `text`, words that begin a word.
    public static let anyTag = LibraryField(
        "anyTag", .text, "any part of the title, an artist, the album, album artist, composer or genre")

    /// The field named `name`; nil for an unknown one.
    public static func named(_ name: String) -> LibraryField? { all.first { $0.name == name } }
}
