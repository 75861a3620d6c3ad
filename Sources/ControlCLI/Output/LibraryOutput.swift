import ControlProtocol
import PlaybackModel

/// The library's replies as text: one line per result in aligned columns (the id first, to
/// hand to `enqueue`), a count when a page holds fewer than all, the status and the failures.
enum LibraryOutput {
    static func page(_ page: LibraryPage) -> String {
        let rows: [[String]]
        switch page.items {
        case .songs(let songs):
            rows = songs.map { song in
                [
                    song.id, TimeText.format(song.metadata.duration), song.artists.joined(separator: ", "),
                    song.metadata.album ?? "", song.metadata.title,
                ]
            }
        case .albums(let albums):
            rows = albums.map { album in
                [
                    album.id, album.year.map(String.init) ?? "", album.albumArtist ?? "", album.album,
                    "\(album.songCount) songs", TimeText.format(album.duration),
                ]
            }
        case .names(let names):
            rows = names.map { ["\($0.songCount) songs", "\($0.albumCount) albums", $0.name, $0.id] }
        }
        guard !rows.isEmpty else { return "(nothing found)\n" }
        let more = page.total > rows.count ? "(\(rows.count) of \(page.total))\n" : ""
        return columns(rows) + more
    }

    static func status(_ status: LibraryStatus) -> String {
        var lines = [
            "\(status.state.rawValue): \(status.songs) songs, \(status.albums) albums, \(status.artists) artists"
                + (status.failed > 0 ? ", \(status.failed) files not read (library failures)" : "")
        ]
        if status.state == .scanning { lines.append("scanned \(status.scanned) files so far") }
        if status.measured > 0 || status.toMeasure > 0 {
            lines.append(
                "loudness: \(status.measured) songs measured"
                    + (status.toMeasure > 0 ? ", \(status.toMeasure) to measure" : ""))
        }
        if let updatedAt = status.updatedAt { lines.append("updated \(TimeText.date(updatedAt))") }
        lines.append("folders: " + (status.roots.isEmpty ? "(none)" : status.roots.joined(separator: ", ")))
        return lines.map { $0 + "\n" }.joined()
    }

    static func failures(_ failures: [LibraryFailure], total: Int) -> String {
        guard !failures.isEmpty else { return "(no failures)\n" }
        let more = total > failures.count ? "(\(failures.count) of \(total))\n" : ""
        return failures.map { "\($0.path): \($0.reason)\n" }.joined() + more
    }

    /// Rows in columns two spaces apart, each as wide as its widest cell (the last unpadded).
    static func columns(_ rows: [[String]]) -> String {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in
            rows.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
