import PlaybackEngine
import PlaybackModel

/// A song the loudness analysis is to measure: its id, its file as the index knows it.
struct SongToMeasure: Equatable {
    var id: Int64
    var path: String
    var size: Int64
    var mtime: Int64
}

/// What measuring a song gave: its loudness (with its album's), or why there is none.
struct MeasuredSong {
    var song: SongToMeasure
    var outcome: Result<Loudness, LoudnessError>
}

extension LibraryWriter {
    /// The songs to measure, in groups measured together: each album with a song not measured
    /// (or measured as another file) is measured whole, for its album loudness; a song
    /// without an album alone. `all`: every song, tagged or not (else those without gain
    /// tags); `again`: every one of those, measured or not. `measured`: how many of them have a
    /// measure of their file as it is (an album mate of a changed song).
    func songsToMeasure(all: Bool, again: Bool) throws(SQLiteError) -> (groups: [[SongToMeasure]], measured: Int) {
        let rows = try database.rows(
            """
            WITH wanted AS (
                SELECT s.id, s.path, s.size, s.mtime, CASE WHEN s.album IS NULL THEN NULL ELSE s.album_id END AS album
                FROM songs s
                WHERE s.missing = 0 AND (?1 OR (s.replayGainTrackGain IS NULL AND s.replayGainAlbumGain IS NULL))),
            stale AS (
                SELECT w.id, w.album FROM wanted w LEFT JOIN user.loudness l ON l.song = w.id
                WHERE ?2 OR l.song IS NULL OR l.size != w.size OR l.mtime != w.mtime)
            SELECT w.id, w.path, w.size, w.mtime, w.album,
                EXISTS (SELECT 1 FROM user.loudness l WHERE l.song = w.id AND l.size = w.size AND l.mtime = w.mtime)
            FROM wanted w
            WHERE w.id IN (SELECT id FROM stale) OR w.album IN (SELECT album FROM stale WHERE album IS NOT NULL)
            ORDER BY w.album IS NULL, w.album, w.id
            """, [.integer(all ? 1 : 0), .integer(again ? 1 : 0)]
        ) { row in
            (
                SongToMeasure(
                    id: Int64(row.int(0)), path: row.text(1), size: Int64(row.int(2)), mtime: Int64(row.int(3))),
                row.optionalInt(4), row.int(5) == 1
            )
        }
        var groups: [[SongToMeasure]] = []
        var groupAlbum: Int?
        for (song, album, _) in rows {
            if let album, album == groupAlbum {
                groups[groups.count - 1].append(song)
            } else {
                groups.append([song])
            }
            groupAlbum = album
        }
        return (groups, rows.filter(\.2).count)
    }

    /// Keeps what measuring `songs` gave, in one transaction.
    func store(_ songs: [MeasuredSong]) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            for measured in songs {
                let (loudness, failure): (Loudness?, String?) =
                    switch measured.outcome {
                    case .success(let loudness): (loudness, nil)
                    case .failure(let error): (nil, error.description)
                    }
                let optional = { (value: Double?) in value.map(SQLiteValue.real) ?? .null }
                try database.run(
                    "INSERT OR REPLACE INTO user.loudness(song, size, mtime, loudness, peak, album, failure) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(measured.song.id), .integer(measured.song.size), .integer(measured.song.mtime),
                        optional(loudness?.integrated), optional(loudness?.peak), optional(loudness?.album),
                        failure.map(SQLiteValue.text) ?? .null,
                    ])
            }
        }
    }

    /// How many of the library's songs the analysis has done for their file as it is (a file
    /// that could not be measured included, with its reason).
    func measuredCount() throws(SQLiteError) -> Int {
        try database.rows(
            """
            SELECT count(*) FROM songs s JOIN user.loudness l ON l.song = s.id AND l.size = s.size AND l.mtime = s.mtime
            WHERE s.missing = 0
            """
        ) { $0.int(0) }.first ?? 0
    }
}
