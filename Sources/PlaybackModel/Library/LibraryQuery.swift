/// A question to the music library, as `MPMediaQuery` asks it: what kind of entity, the
/// filters every result must meet (`MPMediaPropertyPredicate`s), free text, an order and a
/// page.
public struct LibraryQuery: Sendable, Equatable {
    /// What the results are.
    public enum Entity: String, Sendable, CaseIterable {
        case songs, albums, artists, albumArtists, genres, composers

        /// The fields its results sort by.
        public var sortFields: [String] {
            switch self {
            case .songs: LibraryField.all.map(\.name)
            case .albums: ["album", "albumArtist", "year", "songCount", "duration", "dateAdded"]
            case .artists, .albumArtists, .genres, .composers: ["name", "songCount", "albumCount"]
            }
        }

        /// The order when none is asked for: an album's songs in disc and track order, albums
        /// by album artist and year, names alphabetically.
        public var defaultSort: [SortKey] {
            switch self {
            case .songs:
                ["albumArtist", "album", "discNumber", "trackNumber", "path"].map { SortKey($0) }
            case .albums: ["albumArtist", "year", "album"].map { SortKey($0) }
            case .artists, .albumArtists, .genres, .composers: [SortKey("name")]
            }
        }
    }

    /// How a filter compares (`MPMediaPredicateComparison`'s two, and more).
    public enum Comparison: String, Sendable, CaseIterable {
        /// The whole value, folded; for a multi-valued tag, any of its values.
        case equalTo
        /// Anywhere in the value, folded.
        case contains
        /// At the value's start, folded.
        case startsWith
        /// A Perl-compatible regular expression (PCRE2) that matches anywhere in the value as
        /// tagged (not folded), case-insensitive.
        case matches
        /// A number at least this.
        case atLeast
        /// A number at most this.
        case atMost
    }

    /// One condition every result meets: `field`'s value compared with `value`, or, when
    /// `isNegated`, does not meet (a song without the field then meets it).
    public struct Filter: Sendable, Equatable {
        public var field: LibraryField
        public var comparison: Comparison
        public var value: String
        public var isNegated: Bool

        public init(_ field: LibraryField, _ comparison: Comparison, _ value: String, negated: Bool = false) {
            self.field = field
            self.comparison = comparison
            self.value = value
            isNegated = negated
        }
    }

    /// One sort key: a field, ascending unless `descending`.
    public struct SortKey: Sendable, Equatable {
        public var field: String
        public var descending: Bool

        public init(_ field: String, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }
    }

    /// The most results one page holds.
    public static let maximumLimit = 1000
    /// The most songs one `enqueue` of a query adds (the queue's own limit is higher).
    public static let maximumEnqueue = 100_000

    public var entity: Entity
    public var filters: [Filter]
    /// Groups of filters no result meets all of (a group of one is a negated filter): MPD's
    /// `(!((A) AND (B)))`.
    public var exclusions: [[Filter]] = []
    /// Words that must each begin a word of the title, artist, album, album artist or composer.
    public var text: String?
    /// Empty: the entity's default order.
    public var sort: [SortKey]
    public var offset: Int
    public var limit: Int

    public init(
        entity: Entity = .songs, filters: [Filter] = [], text: String? = nil, sort: [SortKey] = [], offset: Int = 0,
        limit: Int = maximumLimit
    ) {
        self.entity = entity
        self.filters = filters
        self.text = text
        self.sort = sort
        self.offset = offset
        self.limit = limit
    }
}
