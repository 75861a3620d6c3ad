import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Why a stored playlist could not be read or written.
enum StoredPlaylistError: Error, Equatable {
    /// A name with a `/`, a newline, or nothing in it.
    case badName
    case missing
    case exists
    case failed(String)
}

/// Named playlists kept as M3U8 files, one absolute path or URL a line, in one folder
/// (`$XDG_CONFIG_HOME/playbackd/playlists`): MPD's stored playlists, and files `enqueue` takes
/// like any playlist. Each change replaces the file whole (a temporary file, then `rename`).
struct StoredPlaylists {
    let directory: String

    static func defaultDirectory(environment: Environment) -> String? {
        XDGDirectories.config(environment: environment).map { $0 + "/playlists" }
    }

    /// The file of the playlist `name`.
    func path(of name: String) throws(StoredPlaylistError) -> String {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\n"), !name.contains("\r"), !name.hasPrefix(".")
        else { throw .badName }
        return directory + "/" + name + ".m3u8"
    }

    /// Every playlist's name and when it was last changed (milliseconds since the epoch), by name.
    func all() -> [(name: String, modified: Int64)] {
        FileSystem.names(in: directory).filter { $0.hasSuffix(".m3u8") && !$0.hasPrefix(".") }.sorted().compactMap {
            name in
            FileSystem.identity(of: directory + "/" + name).map { (String(name.dropLast(".m3u8".count)), $0.modified) }
        }
    }

    /// The playlist's entries, in order.
    func entries(_ name: String) throws(StoredPlaylistError) -> [String] {
        let file = try path(of: name)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(file, maximumBytes: 64 << 20)
        } catch .missing {
            throw .missing
        } catch {
            throw .failed("\(error)")
        }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter {
            !$0.isEmpty && !$0.hasPrefix("#")
        }
    }

    /// Writes the playlist whole; `replacing` false refuses one that is there.
    func write(_ name: String, _ entries: [String], replacing: Bool = true) throws(StoredPlaylistError) {
        let file = try path(of: name)
        if !replacing, access(file, F_OK) == 0 { throw .exists }
        let text = "#EXTM3U\n" + entries.map { $0 + "\n" }.joined()
        if let failure = FileSystem.replace(file, with: Array(text.utf8), durable: true) { throw .failed(failure) }
    }

    func remove(_ name: String) throws(StoredPlaylistError) {
        let file = try path(of: name)
        guard unlink(file) == 0 else { throw errno == ENOENT ? .missing : .failed(FileSystem.describe(errno)) }
    }

    func rename(_ name: String, to newName: String) throws(StoredPlaylistError) {
        let (from, to) = (try path(of: name), try path(of: newName))
        guard access(from, F_OK) == 0 else { throw .missing }
        guard access(to, F_OK) != 0 else { throw .exists }
        guard Glibc.rename(from, to) == 0 else { throw .failed(FileSystem.describe(errno)) }
    }
}
