import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What identifies a file's contents without reading them: a rescan rereads a file whose
/// size, modification time or inode changed.
struct LibraryFileIdentity: Equatable, Hashable {
    var size: Int64
    var modified: Int64
    var inode: Int64
}

/// A song read from its file, ready to be written.
struct ScannedSong {
    var path: String
    var identity: LibraryFileIdentity
    var metadata: TrackMetadata
    /// A cover file in its folder, when there is one.
    var folderCover: String?
}

/// The library's writing connection: the index with the user's database attached. Used on the
/// library's thread alone. Opening it rebuilds an index that is damaged, foreign or of another
/// version (`rebuilt` says why); the user's database is never rebuilt.
final class LibraryWriter {
    let database: SQLiteDatabase
    /// Why the index was made anew when it was opened; nil when it was kept.
    private(set) var rebuilt: String?

    init(indexPath: String, userPath: String) throws(SQLiteError) {
        var reason: String?
        database = try Self.openIndex(indexPath, rebuilt: &reason)
        rebuilt = reason
        try database.execute("ATTACH DATABASE '\(userPath.substituting("'", with: "''"))' AS user")
        try database.execute("PRAGMA user.journal_mode = WAL")
        try database.execute(LibrarySchema.user)
    }

    /// Opens the index at `path`, making it anew when it is not one of this version.
    private static func openIndex(_ path: String, rebuilt: inout String?) throws(SQLiteError) -> SQLiteDatabase {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            // A new file has no tables yet: that is no reason to say anything.
            if try database.hasTable("info") {
                let versions = try database.rows("SELECT value FROM info WHERE key = 'version'") { $0.int(0) }
                if versions.first == LibrarySchema.indexVersion { return database }
                rebuilt = "the index is of another version"
            }
        } catch {
            rebuilt = "the index could not be read (\(error.message))"
        }
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        try database.transaction { () throws(SQLiteError) in try database.execute(LibrarySchema.index) }
        return database
    }

    /// The song id for a file: the one kept for its path; else, for a file moved or renamed
    /// (its inode and size are those of a song whose path is gone), that song's, now at this
    /// path; else a new one, added now.
    func songID(for path: String, _ identity: LibraryFileIdentity, now: Double) throws(SQLiteError) -> Int64 {
        if let id = try database.rows("SELECT id FROM user.songs WHERE path = ?", [.text(path)], { $0.int(0) }).first {
            try database.run(
                "UPDATE user.songs SET inode = ?, size = ? WHERE id = ?",
                [.integer(identity.inode), .integer(identity.size), .integer(Int64(id))])
            return Int64(id)
        }
        let candidates = try database.rows(
            "SELECT id, path FROM user.songs WHERE inode = ? AND size = ?",
            [.integer(identity.inode), .integer(identity.size)]
        ) { (Int64($0.int(0)), $0.text(1)) }
        if let moved = candidates.first(where: { access($0.1, F_OK) != 0 }) {
            try database.run("UPDATE user.songs SET path = ? WHERE id = ?", [.text(path), .integer(moved.0)])
            return moved.0
        }
        try database.run(
            "INSERT INTO user.songs(path, inode, size, added) VALUES (?, ?, ?, ?)",
            [.text(path), .integer(identity.inode), .integer(identity.size), .real(now)])
        return database.lastInsertedID
    }

    /// Writes `song` under `id`, replacing what the index held for it or its path.
    func write(_ song: ScannedSong, id: Int64) throws(SQLiteError) {
        try database.run("DELETE FROM songs WHERE id = ? OR path = ?", [.integer(id), .text(song.path)])
        let fields = TrackField.all
        let names = fields.map { "\"\($0.key)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: fields.count + 7).joined(separator: ", ")
        var values: [SQLiteValue] = [
            .integer(id), .text(song.path), .integer(song.identity.size), .integer(song.identity.modified),
            .integer(song.identity.inode), .text(Self.artistsJSON(song.metadata)), .optional(song.folderCover),
        ]
        for field in fields { values.append(Self.value(field.value(in: song.metadata))) }
        try database.run(
            "INSERT INTO songs(id, path, size, mtime, inode, artists, folderCover, \(names)) VALUES (\(marks))", values)
    }

    /// Takes out the songs at `paths` (their user rows stay: a file that comes back is the same
    /// song).
    func remove(_ paths: [String]) throws(SQLiteError) {
        for path in paths { try database.run("DELETE FROM songs WHERE path = ?", [.text(path)]) }
    }

    /// Marks the songs under `prefix` missing (their disk is not there) or there again; returns
    /// how many changed.
    @discardableResult
    func setMissing(_ missing: Bool, under prefix: String) throws(SQLiteError) -> Int {
        try database.run(
            "UPDATE songs SET missing = ?2 WHERE missing != ?2 AND substr(path, 1, length(?1)) = ?1",
            [.text(prefix), .integer(missing ? 1 : 0)])
        return database.changes
    }

    /// The failures under `prefix` are replaced by `failures`.
    func replaceFailures(under prefix: String?, with failures: [LibraryFailure]) throws(SQLiteError) {
        if let prefix {
            try database.run("DELETE FROM failures WHERE substr(path, 1, length(?1)) = ?1", [.text(prefix)])
        } else {
            try database.run("DELETE FROM failures")
        }
        for failure in failures {
            try database.run(
                "INSERT OR REPLACE INTO failures(path, reason) VALUES (?, ?)",
                [.text(failure.path), .text(failure.reason)])
        }
    }

    func setUpdatedAt(_ time: Double) throws(SQLiteError) {
        try database.run("INSERT OR REPLACE INTO info(key, value) VALUES ('updatedAt', ?)", [.real(time)])
    }

    /// A song was heard (a play) or passed over (a skip), by its path.
    func record(_ event: SongStatistic) throws(SQLiteError) {
        switch event.kind {
        case .played:
            try database.run(
                "UPDATE user.songs SET plays = plays + 1, lastPlayed = ? WHERE path = ?",
                [.real(event.time), .text(event.path)])
        case .skipped:
            try database.run("UPDATE user.songs SET skips = skips + 1 WHERE path = ?", [.text(event.path)])
        }
    }

    func setRating(_ rating: Int, id: Int64) throws(SQLiteError) {
        try database.run("UPDATE user.songs SET rating = ? WHERE id = ?", [.integer(Int64(rating)), .integer(id)])
    }

    /// All of the song's artists as the index keeps them: a JSON array of strings.
    static func artistsJSON(_ metadata: TrackMetadata) -> String {
        "[" + metadata.allArtists.map(jsonString).joined(separator: ",") + "]"
    }

    /// The artists `artistsJSON` wrote, read back (none from a text that is not such an array).
    static func artists(fromJSON text: String) -> [String] {
        (try? JSONParser.parse(text.utf8))?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    static func value(_ value: TrackFieldValue?) -> SQLiteValue {
        switch value {
        case nil: .null
        case .text(let text): .text(text)
        case .number(let number): .integer(Int64(number))
        case .seconds(let seconds), .decimal(let seconds): .real(seconds)
        }
    }
}
