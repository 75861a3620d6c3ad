import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A file to probe, from a path the user gave: the file itself, one found in a directory, or
/// one listed in a playlist (with the playlist's `#EXTINF` title).
struct EnqueueCandidate: Equatable {
    var path: String
    var title: String?
}

/// Turns the paths of an `enqueue` into the files to probe: directories recursively in
/// natural order (only audio files; covers and the like are passed over silently), M3U, M3U8
/// and PLS playlists with their paths resolved against the playlist, and http(s) URLs (a
/// playlist's URL is fetched, and lists only URLs). Everything it cannot use
/// becomes a rejection with its reason; nothing here is fatal. Runs on the prober thread.
struct EnqueueExpander {
    static let audioExtensions = AudioFileFormat.allExtensions
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// Deepest directory or playlist nesting followed.
    static let maximumDepth = 32
    /// Largest playlist file read.
    static let maximumPlaylistBytes = 16 << 20

    /// Stops collecting past this many files (the queue could not take more).
    let limit: Int
    /// Fetches a playlist by URL, refusing more than `maximumBytes`.
    var fetch: @Sendable (_ url: String, _ maximumBytes: Int) throws(DecoderError) -> [UInt8] = fetchesNothing

    /// A fetcher for where there is no network input (tests of local files).
    static let fetchesNothing: @Sendable (_ url: String, _ maximumBytes: Int) throws(DecoderError) -> [UInt8] = {
        _, _ throws(DecoderError) in
        throw .unsupported("playlists by URL")
    }
    /// Most directory entries read for one `enqueue` (pointing it at `/` must end).
    var maximumEntries = 1_000_000

    private struct Walk {
        var candidates: [EnqueueCandidate] = []
        var rejected: [Rejection] = []
        /// Directories entered, by device and inode (a symlink loop is entered once).
        var visited: Set<[UInt64]> = []
        var entriesRead = 0
        /// Set when `maximumEntries` was reached: no more directories are read (files named
        /// explicitly, and those listed before the cut, still are).
        var isCut = false
    }

    func expand(_ paths: [String]) -> (candidates: [EnqueueCandidate], rejected: [Rejection]) {
        var walk = Walk()
        for path in paths {
            guard path.hasPrefix(bytes: "/") || StreamURL.isStream(path) else {
                walk.rejected.append(Rejection(path: path, reason: "path must be absolute"))
                continue
            }
            add(path, title: nil, depth: 0, explicit: true, into: &walk)
        }
        return (walk.candidates, walk.rejected)
    }

    private func add(_ path: String, title: String?, depth: Int, explicit: Bool, into walk: inout Walk) {
        guard walk.candidates.count < limit else { return }
        if StreamURL.isStream(path) {
            guard Self.playlistExtensions.contains(StreamURL.extension(path)) else {
                return walk.candidates.append(EnqueueCandidate(path: path, title: title))
            }
            guard depth < Self.maximumDepth else {
                return walk.rejected.append(Rejection(path: path, reason: "nested too deeply"))
            }
            return addPlaylist(path, depth: depth, into: &walk)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return walk.rejected.append(Rejection(path: path, reason: Self.describe(errno)))
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR {
            guard depth < Self.maximumDepth else {
                return walk.rejected.append(Rejection(path: path, reason: "nested too deeply"))
            }
            guard walk.visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
            let before = walk.candidates.count
            addDirectory(path, depth: depth, into: &walk)
            if explicit && walk.candidates.count == before && !walk.rejected.contains(where: { $0.path == path }) {
                walk.rejected.append(Rejection(path: path, reason: "no audio files in the directory"))
            }
        } else if kind != S_IFREG {
            walk.rejected.append(Rejection(path: path, reason: "not a regular file"))
        } else if Self.playlistExtensions.contains(FileName.extension(path)) {
            guard depth < Self.maximumDepth else {
                return walk.rejected.append(Rejection(path: path, reason: "nested too deeply"))
            }
            addPlaylist(path, depth: depth, into: &walk)
        } else {
            walk.candidates.append(EnqueueCandidate(path: path, title: title))
        }
    }

    private func addDirectory(_ path: String, depth: Int, into walk: inout Walk) {
        guard !walk.isCut else { return }
        guard let directory = opendir(path) else {
            return walk.rejected.append(
                Rejection(path: path, reason: "cannot read the directory: \(Self.describe(errno))"))
        }
        var names: [(name: String, type: UInt8)] = []
        while let entry = readdir(directory) {
            walk.entriesRead += 1
            if walk.entriesRead > maximumEntries {
                walk.isCut = true
                walk.rejected.append(
                    Rejection(path: path, reason: "stopped after reading \(maximumEntries) directory entries"))
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if !name.hasPrefix(bytes: ".") { names.append((name, entry.pointee.d_type)) }
        }
        closedir(directory)
        for (name, type) in NaturalOrder.sorted(names, by: \.name) {
            let child = path.hasSuffix(bytes: "/") ? path + name : path + "/" + name
            switch Self.kind(of: child, type: type) {
            case S_IFDIR:
                add(child, title: nil, depth: depth + 1, explicit: false, into: &walk)
            case S_IFREG where Self.audioExtensions.contains(FileName.extension(name)):
                // No stat: opening it checks again that it is a regular file.
                guard walk.candidates.count < limit else { return }
                walk.candidates.append(EnqueueCandidate(path: child, title: nil))
            default: continue  // a dangling link in a directory is not asked for
            }
        }
    }

    /// A directory entry's file type (`S_IFDIR`, `S_IFREG`, ...), from the entry when the file
    /// system gives it (no system call), else by following it with stat (links); 0 when that fails.
    private static func kind(of path: String, type: UInt8) -> mode_t {
        switch Int(type) {
        case Int(DT_DIR): return S_IFDIR
        case Int(DT_REG): return S_IFREG
        default:
            var info = stat()
            return stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        }
    }

    private func addPlaylist(_ path: String, depth: Int, into walk: inout Walk) {
        let bytes: [UInt8]
        let remote = StreamURL.isStream(path)
        if remote {
            do {
                bytes = try fetch(path, Self.maximumPlaylistBytes)
            } catch {
                return walk.rejected.append(Rejection(path: path, reason: "cannot fetch the playlist: \(error)"))
            }
        } else {
            do {
                bytes = try FileSystem.readAll(path, maximumBytes: Self.maximumPlaylistBytes)
            } catch {
                let reason =
                    switch error {
                    case .missing: Self.describe(ENOENT)
                    case .failed(let code): Self.describe(code)
                    case .tooLarge: Self.describe(EFBIG)
                    case .notAFile: "not a regular file"
                    }
                return walk.rejected.append(Rejection(path: path, reason: "cannot read the playlist: \(reason)"))
            }
        }
        let entries =
            StreamURL.extension(path) == "pls" || FileName.extension(path) == "pls"
            ? PLSPlaylist(bytes: bytes).entries : M3UPlaylist(bytes: bytes).entries
        guard !entries.isEmpty else {
            return walk.rejected.append(Rejection(path: path, reason: "the playlist lists nothing"))
        }
        let base = String(path[..<path.lastIndex(of: "/")!])
        for entry in entries {
            // A playlist from the web names only what is on the web.
            guard let entryPath = M3UPlaylist.path(of: entry.location, base: base),
                !remote || StreamURL.isStream(entryPath)
            else {
                let allowed = remote ? "only http(s) URLs" : "only local files and http(s) URLs"
                walk.rejected.append(Rejection(path: entry.location, reason: "\(allowed) can be played (in \(path))"))
                continue
            }
            add(entryPath, title: entry.title, depth: depth + 1, explicit: true, into: &walk)
        }
    }

    /// The reasons worded as the decoder words them.
    private static func describe(_ error: Int32) -> String {
        switch error {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(error))
        }
    }
}
