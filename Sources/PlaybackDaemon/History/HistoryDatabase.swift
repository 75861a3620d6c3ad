import ControlProtocol
import PlaybackModel

/// The listening history's SQLite file: one row a hearing, keyed by when it began, the item's
/// path and its title (a hearing's second report updates its row, never adds one; a live
/// stream's titles are hearings of their own, and the first begins with the stream). Every commit is
/// durable (WAL, `synchronous = FULL`): the moment a listen counts, a kill -9 keeps it. One
/// thread uses it (`ListeningHistory`'s worker).
final class HistoryDatabase {
    let database: SQLiteDatabase

    /// Opens (creating) the file at `path`.
    init(path: String) throws(SQLiteError) {
        database = try SQLiteDatabase(path: path, cacheKiB: 256)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        try database.transaction { () throws(SQLiteError) in
            // A file of the first version keyed a hearing without its title: its rows are
            // copied, with their ids (the scrobblers' cursors), to the table of today.
            let keyedWithoutTitle =
                try database.rows(
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'hearings'"
                ) { $0.text(0) }.first?.contains(bytes: "UNIQUE (listenedAt, path)") ?? false
            if keyedWithoutTitle { try database.execute("ALTER TABLE hearings RENAME TO hearingsBefore;") }
            try database.execute(Self.schema)
            if keyedWithoutTitle {
                try database.execute("INSERT INTO hearings SELECT * FROM hearingsBefore; DROP TABLE hearingsBefore;")
            }
        }
    }

    /// The tables, made when missing.
    private static let schema = """
        CREATE TABLE IF NOT EXISTS hearings (
            id INTEGER PRIMARY KEY,
            listenedAt REAL NOT NULL,
            path TEXT NOT NULL,
            title TEXT,
            artists TEXT NOT NULL,
            album TEXT,
            albumArtist TEXT,
            trackNumber INTEGER,
            duration REAL NOT NULL,
            identifiers TEXT,
            seconds REAL,
            ending TEXT,
            isListen INTEGER NOT NULL DEFAULT 0,
            isPractice INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX IF NOT EXISTS hearingsByStart ON hearings (listenedAt, path, coalesce(title, ''));
        CREATE TABLE IF NOT EXISTS scrobbleCursors (
            service TEXT PRIMARY KEY,
            hearing INTEGER NOT NULL,
            sentAt REAL
        );
        CREATE TABLE IF NOT EXISTS scrobblesSetAside (
            service TEXT NOT NULL,
            hearing INTEGER NOT NULL,
            reason TEXT NOT NULL,
            PRIMARY KEY (service, hearing)
        );
        """

    /// Records what a step heard, in one transaction: a listen as it counts, a hearing as it ends.
    func record(_ events: [PlayerEvent]) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            for event in events {
                switch event {
                case .listened(let item, let began):
                    try database.run(
                        """
                        INSERT INTO hearings (listenedAt, path, title, artists, album, albumArtist, trackNumber,
                            duration, identifiers, isListen)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                        ON CONFLICT (listenedAt, path, coalesce(title, '')) DO UPDATE SET isListen = 1
                        """, Self.track(item, began: began))
                case .itemHeard(let heard):
                    try database.run(
                        """
                        INSERT INTO hearings (listenedAt, path, title, artists, album, albumArtist, trackNumber,
                            duration, identifiers, seconds, ending, isListen, isPractice)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (listenedAt, path, coalesce(title, '')) DO UPDATE SET seconds = excluded.seconds,
                            ending = excluded.ending, isListen = max(isListen, excluded.isListen),
                            isPractice = excluded.isPractice
                        """,
                        Self.track(heard.item, began: heard.began) + [
                            .real(heard.seconds), .text(heard.ending.rawValue), .integer(heard.isListen ? 1 : 0),
                            .integer(heard.isPractice ? 1 : 0),
                        ])
                default: break
                }
            }
        }
    }

    /// The hearings that began in `since ..< until`, newest first, `limit` from `offset`, and how
    /// many the range holds.
    func page(offset: Int, limit: Int, since: Double?, until: Double?) throws(SQLiteError) -> ListenPage {
        let range: [SQLiteValue] = [.real(since ?? -Double.greatestFiniteMagnitude), .real(until ?? .infinity)]
        let listens = try database.rows(
            """
            SELECT \(Self.listenColumns) FROM hearings WHERE listenedAt >= ? AND listenedAt < ?
            ORDER BY listenedAt DESC, id DESC LIMIT ? OFFSET ?
            """, range + [.integer(Int64(limit)), .integer(Int64(offset))]
        ) { Self.listen($0) }
        let total = try database.rows(
            "SELECT count(*) FROM hearings WHERE listenedAt >= ? AND listenedAt < ?", range
        ) { $0.int(0) }
        return ListenPage(listens: listens, total: total.first ?? 0)
    }

    /// The columns every row begins with: when, which file, its track fields and identifiers
    /// (a JSON object by their fields' keys; null without any).
    private static func track(_ item: QueueItem, began: Double) -> [SQLiteValue] {
        let metadata = item.metadata
        let identifiers: [(String, JSONValue)] = TrackField.identifiers.compactMap { field in
            guard case .text(let value)? = field.value(in: metadata) else { return nil }
            return (field.key, .string(value))
        }
        return [
            .real(began), .text(item.path), .text(metadata.title), .text(LibraryWriter.artistsJSON(metadata)),
            .optional(metadata.album), .optional(metadata.albumArtist), .optional(metadata.trackNumber),
            .real(metadata.duration), identifiers.isEmpty ? .null : .text(JSONValue.object(identifiers).serialized),
        ]
    }

    /// The columns `listen` reads, in its order.
    static let listenColumns = """
        listenedAt, seconds, ending, isListen, isPractice, path, title, artists, album, albumArtist, trackNumber,
        duration, identifiers
        """

    /// A row's `listenColumns`, from column `first` on, as a hearing.
    static func listen(_ row: SQLiteStatement, from first: Int32 = 0) -> Listen {
        let column = { (index: Int32) in first + index }
        var listen = Listen(
            listenedAt: row.double(column(0)), seconds: row.optionalDouble(column(1)),
            ending: row.optionalText(column(2)), isListen: row.int(column(3)) != 0,
            isPractice: row.int(column(4)) != 0, path: row.text(column(5)), title: row.optionalText(column(6)),
            artists: LibraryWriter.artists(fromJSON: row.text(column(7))), album: row.optionalText(column(8)),
            albumArtist: row.optionalText(column(9)), trackNumber: row.optionalInt(column(10)),
            duration: row.double(column(11)))
        listen.identifiers = identifiers(row.optionalText(column(12)))
        return listen
    }

    /// The identifiers column read back.
    private static func identifiers(_ text: String?) -> [String: String] {
        guard let text, let members = (try? JSONParser.parse(Array(text.utf8)))?.objectMembers else { return [:] }
        var found: [String: String] = [:]
        for (key, value) in members { found[key] = value.stringValue }
        return found
    }
}
