import ControlProtocol
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The library's commands of MPD's protocol, answered from the music library (docs/library.md):
/// MPD's URIs are paths under the library's first folder.
extension MPDCommands {
    static let library: [MPDCommand] = [
        MPDCommand("find", 1...64, .read) { context, arguments, reply in
            songs(context, arguments, exact: true, reply) { found in found.flatMap { songLines($0, context) } }
        },
        MPDCommand("search", 1...64, .read) { context, arguments, reply in
            songs(context, arguments, exact: false, reply) { found in found.flatMap { songLines($0, context) } }
        },
        MPDCommand("findadd", 1...64, .add) { context, arguments, reply in add(context, arguments, exact: true, reply)
        },
        MPDCommand("searchadd", 1...64, .add) { context, arguments, reply in
            add(context, arguments, exact: false, reply)
        },
        MPDCommand("count", 1...64, .read) { context, arguments, reply in
            songs(context, arguments, exact: true, reply) { found in countLines(found.map(\.metadata.duration)) }
        },
        // MPD 0.24: count with search's matching.
        MPDCommand("searchcount", 1...64, .read) { context, arguments, reply in
            songs(context, arguments, exact: false, reply) { found in countLines(found.map(\.metadata.duration)) }
        },
        MPDCommand("list", 1...64, .read) { context, arguments, reply in list(context, arguments, reply) },
        MPDCommand("lsinfo", 0...1, .read) { context, arguments, reply in lsinfo(context, arguments.first ?? "", reply)
        },
        MPDCommand("listall", 0...1, .read) { context, arguments, reply in
            subtree(context, arguments.first ?? "", reply) { song in
                ["file: \(MPDSongFormat.uri(song.path, roots: context.roots))"]
            }
        },
        MPDCommand("listallinfo", 0...1, .read) { context, arguments, reply in
            subtree(context, arguments.first ?? "", reply) { songLines($0, context) }
        },
    ]

    /// `count`'s lines (and `searchcount`'s, `playlistlength`'s) for songs of these durations.
    static func countLines(_ durations: [Double]) -> [String] {
        ["songs: \(durations.count)", "playtime: \(Int(durations.reduce(0, +).rounded()))"]
    }

    /// A song's lines, with when its file was modified and when the library found it (MPD
    /// 0.24's `Added`).
    private static func songLines(_ song: LibrarySong, _ context: MPDContext) -> [String] {
        var lines = MPDSongFormat.lines(
            path: song.path, song.metadata, modified: song.modified, roots: context.roots, tags: context.tags)
        // After Last-Modified, as MPD 0.24 writes them (src/SongPrint.cxx).
        let added = "Added: \(MPDSongFormat.iso8601(milliseconds: Int64(song.statistics.dateAdded * 1000)))"
        lines.insert(added, at: song.modified == nil ? 1 : 2)
        return lines
    }

    /// Every song `arguments` find, in the window asked for, as `lines`.
    private static func songs(
        _ context: MPDContext, _ arguments: [String], exact: Bool, _ reply: @escaping MPDReply,
        lines: @escaping ([LibrarySong]) -> [String]
    ) {
        switch MPDLibraryQuery.parse(arguments, exact: exact, roots: context.roots) {
        case .failure(let error): reply(.failure(error))
        case .success(let search):
            fetch(context, search.query) { result in
                reply(
                    result.map { found in
                        let window = search.window.map { $0.clamped(to: 0..<found.count) } ?? 0..<found.count
                        return lines(Array(found[window]))
                    })
            }
        }
    }

    /// `findadd` and `searchadd`: what the search finds (in its window), at the end of the
    /// queue or where `position` says.
    private static func add(_ context: MPDContext, _ arguments: [String], exact: Bool, _ reply: @escaping MPDReply) {
        switch MPDLibraryQuery.parse(arguments, exact: exact, roots: context.roots) {
        case .failure(let error): reply(.failure(error))
        case .success(let search):
            var query = search.query
            query.offset = search.window?.lowerBound ?? 0
            query.limit = min(search.window?.count ?? .max, LibraryQuery.maximumEnqueue)
            var placement = EnqueuePlacement.end
            if let position = search.position {
                switch context.insertPosition(position) {
                case .failure(let error): return reply(.failure(error))
                case .success(let index): placement = .index(index)
                }
            }
            guard query.limit > 0 else { return reply(.success([])) }
            context.perform(.enqueueLibrary(.query(query), placement: placement, replace: false, play: false)) {
                result in
                switch result {
                case .success: reply(.success([]))
                case .failure(let failure) where failure.status == .noSuchContent: reply(.success([]))
                case .failure(let failure): reply(.failure(MPDError(failure)))
                }
            }
        }
    }

    /// Every song of `query`, a page at a time.
    static func fetch(
        _ context: MPDContext, _ query: LibraryQuery, found: [LibrarySong] = [],
        _ done: @escaping (Result<[LibrarySong], MPDError>) -> Void
    ) {
        var page = query
        page.offset = found.count
        page.limit = LibraryQuery.maximumLimit
        context.perform(.library(.query(page))) { result in
            switch result {
            case .failure(let failure): done(.failure(MPDError(failure)))
            case .success(.library(let reply)):
                guard case .songs(let songs) = reply.items, !songs.isEmpty else { return done(.success(found)) }
                let all = found + songs
                all.count >= reply.total ? done(.success(all)) : fetch(context, query, found: all, done)
            case .success: done(.success(found))
            }
        }
    }

    /// `list TAG [filters] [group TAG]`: the tag's distinct values among the songs found
    /// (with `list album ARTIST`, the old form), grouped by the group tag's values.
    private static func list(_ context: MPDContext, _ arguments: [String], _ reply: @escaping MPDReply) {
        guard let tag = MPDTag.named(arguments[0]) else {
            return reply(.failure(MPDError(.argument, "Unknown tag type: \(arguments[0])")))
        }
        var rest = Array(arguments.dropFirst())
        if tag == .album, rest.count == 1, !rest[0].hasPrefix("(") { rest = ["artist", rest[0]] }
        switch MPDLibraryQuery.parse(rest, exact: true, roots: context.roots) {
        case .failure(let error): reply(.failure(error))
        case .success(let search):
            fetch(context, search.query) { result in
                reply(result.map { songs in listing(songs, tag: tag, group: search.group) })
            }
        }
    }

    /// The distinct values of `tag`, sorted, each group's under its `group` line.
    static func listing(_ songs: [LibrarySong], tag: MPDTag, group: MPDTag?) -> [String] {
        // As MPD lists them: a song without the tag has the empty value, and a song without
        // an album artist is grouped by its artists.
        func values(_ tag: MPDTag, _ song: LibrarySong) -> [String] {
            var values = tag.values(song.metadata)
            if values.isEmpty, tag == .albumArtist { values = MPDTag.artist.values(song.metadata) }
            return values.isEmpty ? [""] : values
        }
        var groups: [String: Set<String>] = [:]
        for song in songs {
            for key in group.map({ values($0, song) }) ?? [""] {
                groups[key, default: []].formUnion(values(tag, song))
            }
        }
        var lines: [String] = []
        for key in groups.keys.sorted() {
            if let group { lines.append("\(group.rawValue): \(MPDSongFormat.oneLine(key))") }
            lines += groups[key]!.sorted().map { "\(tag.rawValue): \(MPDSongFormat.oneLine($0))" }
        }
        return lines
    }

    /// `listall` and `listallinfo`: each folder under `uri` (as `directory:`) before its songs.
    private static func subtree(
        _ context: MPDContext, _ uri: String, _ reply: @escaping MPDReply, song: @escaping (LibrarySong) -> [String]
    ) {
        guard let root = context.roots.first, let folder = MPDSongFormat.path(ofURI: uri, roots: context.roots) else {
            return reply(.failure(MPDError(.noExist, "No such directory")))
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var query = LibraryQuery(entity: .songs, sort: [LibraryQuery.SortKey("path")])
        if folder != root { query.filters = [.init(LibraryField.named("path")!, .startsWith, prefix)] }
        fetch(context, query) { result in
            reply(
                result.map { songs in
                    var lines: [String] = []
                    var named: Set<String> = []
                    for found in songs {
                        let relative = MPDSongFormat.uri(found.path, roots: context.roots)
                        var folders: [String] = []
                        var parent = relative
                        while let slash = parent.lastIndex(of: "/") {
                            parent = String(parent[..<slash])
                            folders.append(parent)
                        }
                        for folder in folders.reversed() where named.insert(folder).inserted {
                            // The folder asked for comes first; those above it are not listed.
                            let asked = uri.hasSuffix("/") ? String(uri.dropLast()) : uri
                            if !asked.isEmpty, folder != asked, !folder.hasPrefix(asked + "/") { continue }
                            lines.append("directory: \(folder)")
                        }
                        lines += song(found)
                    }
                    return lines
                })
        }
    }

    /// `lsinfo`: the folders in a folder of the library, then its songs as the library has
    /// them (a file, a song).
    private static func lsinfo(_ context: MPDContext, _ uri: String, _ reply: @escaping MPDReply) {
        guard let folder = MPDSongFormat.path(ofURI: uri, roots: context.roots) else {
            return reply(.failure(MPDError(.noExist, "No such directory")))
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { return reply(.failure(MPDError(.noExist, "No such directory"))) }
        if info.st_mode & S_IFMT != S_IFDIR {
            return fetch(context, LibraryQuery(filters: [.init(LibraryField.named("path")!, .equalTo, folder)])) {
                reply($0.map { $0.flatMap { songLines($0, context) } })
            }
        }
        let (folders, files) = MPDFolder.entries(of: folder)
        var lines = folders.map { "directory: \(MPDSongFormat.uri(folder + "/" + $0, roots: context.roots))" }
        // The root lists the stored playlists too, as MPD's does (mpc lsplaylists reads them there).
        if folder == context.roots.first && !context.features.contains(.hidePlaylistsInRoot) {
            for playlist in context.playlists?.all() ?? [] {
                lines += [
                    "playlist: \(playlist.name)",
                    "Last-Modified: \(MPDSongFormat.iso8601(milliseconds: playlist.modified))",
                ]
            }
        }
        var remaining = files.map { folder + "/" + $0 }
        func next() {
            guard !remaining.isEmpty else { return reply(.success(lines)) }
            let path = remaining.removeFirst()
            fetch(context, LibraryQuery(filters: [.init(LibraryField.named("path")!, .equalTo, path)])) { result in
                if case .success(let songs) = result { lines += songs.flatMap { songLines($0, context) } }
                next()
            }
        }
        next()
    }
}

/// A folder's entries as `lsinfo` lists them: its folders and its audio files, by name, hidden
/// ones passed over.
enum MPDFolder {
    static func entries(of path: String) -> (folders: [String], files: [String]) {
        var folders: [String] = []
        var files: [String] = []
        // A name that is not UTF-8 comes back with replacement characters and is not found.
        for name in FileSystem.names(in: path) where !name.hasPrefix(".") {
            var info = stat()
            guard stat(path + "/" + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                folders.append(name)
            } else if AudioFileFormat.allExtensions.contains(FileName.extension(name)) {
                files.append(name)
            }
        }
        return (folders.sorted(), files.sorted())
    }
}
