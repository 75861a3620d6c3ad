import PlaybackModel

/// The library's two SQLite databases:
/// - the **index** (`$XDG_CACHE_HOME/playbackd/library-index.sqlite`): a row per song with its
///   file's identity and its track fields (a column per `TrackField`), folded copies of the text
///   fields, its artists (`song_artists`, one row per value), and a full-text index (FTS5,
///   `unicode61 remove_diacritics 2`) over title, artists, album, album artist and composer.
///   Everything in it is read again from the files when it is rebuilt.
///   The full-text index keeps prefixes of 2 to 8 characters: every query word is a prefix
///   (`"word"*`), and a prefix that begins the words of every song (the "title" of "title
///   006150") is read as one list instead of being merged from every word it begins (0.07
///   against 2 - 4 ms at 100,000 songs, for 110 bytes a song).
/// - the **user's** (`$XDG_STATE_HOME/playbackd/library.sqlite`, attached as `user`): each
///   song's persistent id with the path and file identity it was last seen at, when it was
///   added, its play and skip counts, when it was last played and its rating. A rebuilt index
///   takes its ids from here, so nothing the user made is lost. Beside them, each song's
///   measured loudness (`loudness`: LUFS, NULL for silence; its sample peak; its album's
///   loudness over the album's tracks together; or why it could not be measured), with the
///   size and modification time of the file measured: measuring a library takes hours, so a
///   rebuilt index keeps it, and a changed file is measured again.
enum LibrarySchema {
    /// Raised when the index's layout changes: an index of another version is rebuilt.
    static let indexVersion = 6

    /// The SQL type of a track field's column.
    static func columnType(_ field: TrackField) -> String {
        switch field.storage {
        case .requiredText, .text, .path: "TEXT"
        case .number, .requiredNumber: "INTEGER"
        case .seconds, .decimal: "REAL"
        }
    }

    /// The text fields kept folded beside their value (`f_<key>`), for filters and sorting:
    /// every text `LibraryField` but `artist` (its values are in `song_artists`) and `path`
    /// (compared as it is).
    static let foldedFields: [String] = LibraryField.all.filter {
        $0.kind == .text && $0.name != "artist" && $0.name != "path"
    }.map(\.name)

    /// What a search for any part of any tag looks in (`LibraryField.anyTag`, MPD's `search
    /// any`): each tag folded, as `song_parts` (a contentless trigram index) holds it; `row`
    /// is `new`, `old` or a songs alias. The album artist as tagged (not the artist it falls
    /// back to), so a song without one does not hold its artists twice.
    static func parts(of row: String) -> [String] {
        [
            "\(row).\"f_title\"", "\(row).f_artists", "\(row).\"f_album\"",
            "CASE WHEN \(row).\"albumArtist\" IS NULL THEN NULL ELSE \(row).\"f_albumArtist\" END",
            "\(row).\"f_composer\"", "\(row).\"f_genre\"",
        ]
    }

    /// The folded copy of `key`: the album artist falls back to the artist.
    static func foldedExpression(_ key: String) -> String {
        key == "albumArtist" ? "fold(coalesce(\"albumArtist\", \"artist\"))" : "fold(\"\(key)\")"
    }

    /// The index's tables, triggers and indexes.
    static var index: String {
        let fields = TrackField.all.map { "\"\($0.key)\" \(columnType($0))" }.joined(separator: ",\n    ")
        let folded = foldedFields.map { "\"f_\($0)\" TEXT GENERATED ALWAYS AS (\(foldedExpression($0))) STORED" }
            .joined(separator: ",\n    ")
        let foldedIndexes = foldedFields.map { "CREATE INDEX songs_f_\($0) ON songs(\"f_\($0)\");" }.joined(
            separator: "\n")
        let partList = "title, artists, album, albumArtist, composer, genre"
        return """
            CREATE TABLE info(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE TABLE songs(
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL,
                mtime INTEGER NOT NULL,
                inode INTEGER NOT NULL,
                missing INTEGER NOT NULL DEFAULT 0,
                artists TEXT NOT NULL,
                folderCover TEXT,
                \(fields),
                \(folded),
                f_artists TEXT GENERATED ALWAYS AS (fold(artists)) STORED,
                album_id INTEGER GENERATED ALWAYS AS (
                    key_id(fold(coalesce("albumArtist", "artist")) || char(31) || fold("album"))) STORED
            );
            \(foldedIndexes)
            CREATE INDEX songs_album ON songs(album_id);
            CREATE INDEX songs_identity ON songs(path, size, mtime, inode);
            CREATE TABLE song_artists(
                song INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, folded TEXT NOT NULL,
                PRIMARY KEY(song, position)) WITHOUT ROWID;
            CREATE INDEX song_artists_folded ON song_artists(folded);
            CREATE VIRTUAL TABLE song_text USING fts5(
                title, artists, album, albumArtist, composer,
                content='songs', content_rowid='id', tokenize='playbackd',
                prefix='2 3 4 5 6 7 8');
            CREATE VIRTUAL TABLE song_parts USING fts5(
                title, artists, album, albumArtist, composer, genre, content='', columnsize=0, tokenize='trigram');
            CREATE TRIGGER songs_added AFTER INSERT ON songs BEGIN
                INSERT INTO song_text(rowid, title, artists, album, albumArtist, composer)
                    VALUES (new.id, new.title, new.artists, new.album, new.albumArtist, new.composer);
                INSERT INTO song_parts(rowid, \(partList)) VALUES (new.id, \(parts(of: "new").joined(separator: ", ")));
                INSERT INTO song_artists(song, position, name, folded)
                    SELECT new.id, key, value, fold(value) FROM json_each(new.artists);
            END;
            CREATE TRIGGER songs_removed AFTER DELETE ON songs BEGIN
                INSERT INTO song_text(song_text, rowid, title, artists, album, albumArtist, composer)
                    VALUES ('delete', old.id, old.title, old.artists, old.album, old.albumArtist, old.composer);
                INSERT INTO song_parts(song_parts, rowid, \(partList))
                    VALUES ('delete', old.id, \(parts(of: "old").joined(separator: ", ")));
                DELETE FROM song_artists WHERE song = old.id;
            END;
            CREATE TABLE failures(path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
            INSERT INTO info(key, value) VALUES ('version', \(indexVersion));
            """
    }

    /// The user's tables (in the attached database `user`).
    static let user = """
        CREATE TABLE IF NOT EXISTS user.songs(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            path TEXT NOT NULL UNIQUE,
            inode INTEGER NOT NULL,
            size INTEGER NOT NULL,
            added REAL NOT NULL,
            plays INTEGER NOT NULL DEFAULT 0,
            skips INTEGER NOT NULL DEFAULT 0,
            lastPlayed REAL,
            rating INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX IF NOT EXISTS user.songs_file ON songs(inode, size);
        CREATE TABLE IF NOT EXISTS user.loudness(
            song INTEGER PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime INTEGER NOT NULL,
            loudness REAL,
            peak REAL,
            album REAL,
            failure TEXT);
        """
}
