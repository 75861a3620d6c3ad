import ControlProtocol
import PlaybackModel
import SystemSupport

/// The library's reading connection, on the event loop: every query is answered from the
/// index as it stands (in WAL mode a scan's writes never hold a read up, and a scan's
/// transaction is seen whole or not at all).
final class LibraryReader {
    private let database: SQLiteDatabase

    /// Nil while the index has no tables yet (the library's thread is making them).
    init?(indexPath: String, userPath: String) throws(SQLiteError) {
        // It never writes (the library's thread makes the tables), and never waits on a lock
        // for long: in WAL mode a reader needs one only while the log is being reset.
        database = try SQLiteDatabase(path: indexPath, cacheKiB: 2048, busyMilliseconds: 50)
        guard try database.hasTable("songs") else { return nil }
        try database.execute("ATTACH DATABASE '\(userPath.substituting("'", with: "''"))' AS user")
    }

    /// Frees the pages and statements the queries kept (a query of every song fills 2 MiB of
    /// them); the next query reads them again.
    func releaseMemory() { database.releaseMemory() }

    /// The columns a song row is read from: its id, path, artists, the track fields in
    /// `TrackField.all`'s order, its statistics, then its loudness (whether measured, the
    /// loudness, peak and album loudness) and the file's modification time (milliseconds), from
    /// `songRowTables`.
    private static let songColumns =
        "s.id, s.path, s.artists, " + TrackField.all.map { "s.\"\($0.key)\"" }.joined(separator: ", ")
        + ", u.plays, u.skips, u.lastPlayed, u.added, u.rating"
        + ", l.song IS NOT NULL AND l.failure IS NULL, l.loudness, l.peak, l.album, s.mtime / 1000000"
    private static let songTables = "songs s JOIN user.songs u ON u.id = s.id"
    /// The tables of a query of song rows: the songs with their measures of the file as it is.
    private static let songRowTables =
        songTables + " LEFT JOIN user.loudness l ON l.song = s.id AND l.size = s.size AND l.mtime = s.mtime"
    /// How many columns `songColumns` names.
    private static let songColumnCount = Int32(3 + TrackField.all.count + 10)

    /// One page of `query`'s results, and how many there are.
    func page(_ query: LibraryQuery) throws(SQLiteError) -> LibraryPage {
        let sql = LibraryQuerySQL(query)
        let page = [SQLiteValue.integer(Int64(query.limit)), .integer(Int64(query.offset))]
        switch query.entity {
        case .songs:
            let sort = query.sort.isEmpty ? query.entity.defaultSort : query.sort
            // The total in the same pass (a window over every match, before the page is cut).
            let rows = try database.rows(
                "SELECT \(Self.songColumns), count(*) OVER () FROM \(Self.songRowTables) \(sql.whereClause) \(LibraryQuerySQL.songOrder(sort)) LIMIT ? OFFSET ?",
                sql.values + page
            ) { row in (Self.song(row), row.int(Self.songColumnCount)) }
            var total = rows.first?.1 ?? 0
            if rows.isEmpty, query.offset > 0 { total = try count("count(*)", sql) }
            return LibraryPage(items: .songs(rows.map(\.0)), total: total)
        case .albums:
            let albums = try database.rows(
                """
                SELECT s.album_id, s.album, coalesce(s.albumArtist, s.artist), max(s.year), count(*), sum(s.duration),
                    max(s.folderCover)
                FROM \(Self.songTables) \(sql.whereClause) AND s.album IS NOT NULL
                GROUP BY s.album_id \(Self.albumOrder(query.sort.isEmpty ? query.entity.defaultSort : query.sort))
                LIMIT ? OFFSET ?
                """, sql.values + page
            ) { row in
                LibraryAlbum(
                    id: "album-\(row.int(0))", album: row.text(1), albumArtist: row.optionalText(2),
                    year: row.optionalInt(3), songCount: row.int(4), duration: row.double(5),
                    artworkPath: row.optionalText(6))
            }
            return LibraryPage(
                items: .albums(albums), total: try count("count(DISTINCT s.album_id)", sql, "s.album IS NOT NULL"))
        case .artists, .albumArtists, .genres, .composers:
            let (key, name, tables, present, prefix) = Self.nameGrouping(query.entity)
            let order = (query.sort.isEmpty ? query.entity.defaultSort : query.sort).map {
                (["songCount": "2", "albumCount": "3"][$0.field] ?? key) + ($0.descending ? " DESC" : "")
            }.joined(separator: ", ")
            let names = try database.rows(
                """
                SELECT key_id(\(key)), min(\(name)), count(DISTINCT s.id),
                    count(DISTINCT CASE WHEN s.album IS NOT NULL THEN s.album_id END)
                FROM \(tables) \(sql.whereClause) AND \(present)
                GROUP BY \(key) ORDER BY \(order) LIMIT ? OFFSET ?
                """, sql.values + page
            ) { row in
                LibraryName(
                    id: "\(prefix)-\(row.int(0))", name: row.text(1), songCount: row.int(2), albumCount: row.int(3))
            }
            return LibraryPage(
                items: .names(names), total: try count("count(DISTINCT \(key))", sql, present, tables: tables))
        }
    }

    /// The songs of `ids`, in their order: a song id is that song; an album's id its songs in
    /// disc and track order; an artist's, album artist's, genre's or composer's id their songs
    /// in the default order. The ids no song answers to come back on their own.
    func songs(ids: [String]) throws(SQLiteError) -> (songs: [LibrarySong], unknown: [String]) {
        var songs: [LibrarySong] = []
        var unknown: [String] = []
        for id in ids {
            let found = try songsNamed(by: id)
            if found.isEmpty { unknown.append(id) }
            songs += found
        }
        return (songs, unknown)
    }

    private func songsNamed(by id: String) throws(SQLiteError) -> [LibrarySong] {
        let order = LibraryQuerySQL.songOrder(LibraryQuery.Entity.songs.defaultSort)
        let select = "SELECT \(Self.songColumns) FROM \(Self.songRowTables) WHERE s.missing = 0 AND"
        if let number = Int64(id) { return try database.rows("\(select) s.id = ?", [.integer(number)], Self.song) }
        guard let dash = id.lastIndex(of: "-"), let key = Int64(id[id.index(after: dash)...]) else { return [] }
        let condition: String
        switch id[..<dash] {
        case "album": condition = "s.album_id = ?"
        case "artist":
            condition = "EXISTS (SELECT 1 FROM song_artists a WHERE a.song = s.id AND key_id(a.folded) = ?)"
        case "albumartist": condition = "key_id(s.f_albumArtist) = ?"
        case "genre": condition = "key_id(s.f_genre) = ?"
        case "composer": condition = "key_id(s.f_composer) = ?"
        default: return []
        }
        return try database.rows("\(select) \(condition) \(order)", [.integer(key)], Self.song)
    }

    /// The id of the song at `path`; nil when the library has none there.
    func songID(at path: String) throws(SQLiteError) -> Int64? {
        try database.rows("SELECT id FROM songs WHERE path = ?", [.text(path)]) { Int64($0.int(0)) }.first
    }

    /// Whether a song has `id`.
    func hasSong(_ id: Int64) throws(SQLiteError) -> Bool {
        try !database.rows("SELECT 1 FROM songs WHERE id = ?", [.integer(id)]) { $0.int(0) }.isEmpty
    }

    /// How many songs, albums and artists the library holds, how many files failed, and when
    /// the last full scan ended.
    struct Counts {
        var songs = 0
        var albums = 0
        var artists = 0
        var failed = 0
        var updatedAt: Double?
    }

    /// The counts of the index `database` holds (a reader's or the writer's connection): tens
    /// of milliseconds at 100,000 songs, so they are counted on the library's thread. The songs,
    /// albums and artists are `unchanged`'s when given (a scan that changed no song).
    static func counts(in database: SQLiteDatabase, unchanged: Counts? = nil) throws(SQLiteError) -> Counts {
        var songs = unchanged.map { ($0.songs, $0.albums) } ?? (0, 0)
        var artists = unchanged?.artists ?? 0
        if unchanged == nil {
            songs =
                try database.rows(
                    "SELECT count(*), count(DISTINCT CASE WHEN album IS NOT NULL THEN album_id END) FROM songs WHERE missing = 0"
                ) { ($0.int(0), $0.int(1)) }.first ?? (0, 0)
            artists =
                try database.rows(
                    "SELECT count(DISTINCT a.folded) FROM song_artists a JOIN songs s ON s.id = a.song WHERE s.missing = 0"
                ) { $0.int(0) }.first ?? 0
        }
        let failed = try database.rows("SELECT count(*) FROM failures") { $0.int(0) }.first ?? 0
        let updatedAt =
            try database.rows("SELECT value FROM info WHERE key = 'updatedAt'") { $0.optionalDouble(0) }
            .first ?? nil
        return Counts(songs: songs.0, albums: songs.1, artists: artists, failed: failed, updatedAt: updatedAt)
    }

    /// A page of the files that failed, by path, and how many there are.
    func failures(offset: Int, limit: Int) throws(SQLiteError) -> ([LibraryFailure], Int) {
        let failures = try database.rows(
            "SELECT path, reason FROM failures ORDER BY path LIMIT ? OFFSET ?",
            [.integer(Int64(limit)), .integer(Int64(offset))]
        ) { LibraryFailure(path: $0.text(0), reason: $0.text(1)) }
        let total = try database.rows("SELECT count(*) FROM failures") { $0.int(0) }.first ?? 0
        return (failures, total)
    }

    private func count(
        _ expression: String, _ sql: LibraryQuerySQL, _ extra: String? = nil, tables: String = songTables
    ) throws(SQLiteError) -> Int {
        let condition = sql.whereClause + (extra.map { " AND \($0)" } ?? "")
        return try database.rows("SELECT \(expression) FROM \(tables) \(condition)", sql.values) { $0.int(0) }.first
            ?? 0
    }

    /// What a name entity groups by, shows, reads from, requires, and calls its ids.
    private static func nameGrouping(_ entity: LibraryQuery.Entity) -> (
        key: String, name: String, tables: String, present: String, prefix: String
    ) {
        switch entity {
        case .artists:
            (
                "n.folded", "n.name", "song_artists n JOIN songs s ON s.id = n.song JOIN user.songs u ON u.id = s.id",
                "1",
                "artist"
            )
        case .albumArtists:
            (
                "s.f_albumArtist", "coalesce(s.albumArtist, s.artist)", songTables, "s.f_albumArtist IS NOT NULL",
                "albumartist"
            )
        case .genres: ("s.f_genre", "s.genre", songTables, "s.genre IS NOT NULL", "genre")
        default: ("s.f_composer", "s.composer", songTables, "s.composer IS NOT NULL", "composer")
        }
    }

    private static func albumOrder(_ sort: [LibraryQuery.SortKey]) -> String {
        let columns = [
            "album": "min(s.f_album)", "albumArtist": "min(s.f_albumArtist)", "year": "max(s.year)",
            "songCount": "count(*)", "duration": "sum(s.duration)", "dateAdded": "min(u.added)",
        ]
        return "ORDER BY "
            + (sort.map { (columns[$0.field] ?? "s.album_id") + ($0.descending ? " DESC" : "") } + ["s.album_id"])
            .joined(separator: ", ")
    }

    /// A song from a row of `songColumns`.
    private static func song(_ row: SQLiteStatement) -> LibrarySong {
        var metadata = TrackMetadata(title: "", duration: 0, sampleRate: 0, channels: 0)
        for (offset, field) in TrackField.all.enumerated() {
            let column = Int32(3 + offset)
            guard !row.isNull(column) else { continue }
            let value: TrackFieldValue =
                switch field.storage {
                case .requiredText, .text, .path: .text(row.text(column))
                case .number, .requiredNumber: .number(row.int(column))
                case .seconds: .seconds(row.double(column))
                case .decimal: .decimal(row.double(column))
                }
            field.set(value, in: &metadata)
        }
        let artists = LibraryWriter.artists(fromJSON: row.text(2))
        metadata.otherArtists = Array(artists.dropFirst())
        let statistics = Int32(3 + TrackField.all.count)
        let loudness = statistics + 5
        if row.int(loudness) == 1 {
            metadata.measuredLoudness = Loudness(
                integrated: row.optionalDouble(loudness + 1), peak: row.optionalDouble(loudness + 2) ?? 0,
                album: row.optionalDouble(loudness + 3))
        }
        return LibrarySong(
            id: String(row.int(0)), path: row.text(1), metadata: metadata, artists: artists,
            statistics: PlayStatistics(
                playCount: row.int(statistics), skipCount: row.int(statistics + 1),
                lastPlayed: row.optionalDouble(statistics + 2), dateAdded: row.double(statistics + 3),
                rating: row.int(statistics + 4)),
            modified: Int64(row.int(loudness + 4)))
    }
}
