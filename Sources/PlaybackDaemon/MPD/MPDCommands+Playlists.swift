import ControlProtocol
import PlaybackModel

/// MPD's stored playlists, kept by `StoredPlaylists` as M3U8 files of absolute paths and URLs.
extension MPDCommands {
    static let storedPlaylists: [MPDCommand] = [
        MPDCommand("listplaylists", 0...0, .read) { context, _, reply in
            reply(
                .success(
                    (context.playlists?.all() ?? []).flatMap {
                        ["playlist: \($0.name)", "Last-Modified: \(MPDSongFormat.iso8601(milliseconds: $0.modified))"]
                    }))
        },
        MPDCommand("listplaylist", 1...1, .read) { context, arguments, reply in
            reply(
                entries(context, arguments[0]).map { paths in
                    paths.map { "file: \(MPDSongFormat.uri($0, roots: context.roots))" }
                })
        },
        MPDCommand("listplaylistinfo", 1...1, .read) { context, arguments, reply in
            switch entries(context, arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let paths): lookUp(context, paths) { reply(.success(lines(of: $0, context))) }
            }
        },
        // MPD 0.24: the songs of a stored playlist and their playtime (a file the library does
        // not know counts with no time).
        MPDCommand("playlistlength", 1...1, .read) { context, arguments, reply in
            switch entries(context, arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let paths):
                lookUp(context, paths) { found in
                    reply(.success(countLines(found.map { $0.song?.metadata.duration ?? 0 })))
                }
            }
        },
        MPDCommand("load", 1...3, .add) { context, arguments, reply in
            switch entries(context, arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let paths):
                var chosen = paths[...]
                if arguments.count > 1 {
                    switch MPDArgument.range(arguments[1], count: paths.count) {
                    case .failure(let error): return reply(.failure(error))
                    case .success(let range): chosen = paths[range]
                    }
                }
                var placement = EnqueuePlacement.end
                if arguments.count > 2 {
                    switch context.insertPosition(arguments[2]) {
                    case .failure(let error): return reply(.failure(error))
                    case .success(let index): placement = .index(index)
                    }
                }
                guard !chosen.isEmpty else { return reply(.success([])) }
                context.perform(.enqueue(paths: Array(chosen), placement: placement, replace: false, play: false)) {
                    result in
                    switch result {
                    case .success: reply(.success([]))
                    case .failure(let failure): reply(.failure(MPDError(.playlistLoad, failure.message)))
                    }
                }
            }
        },
        MPDCommand("save", 1...2, .control) { context, arguments, reply in
            let mode = arguments.count > 1 ? arguments[1] : "create"
            guard ["create", "replace", "append"].contains(mode) else {
                return reply(.failure(MPDError(.argument, "Unrecognized save mode: \(mode)")))
            }
            let queue = context.view().queue.map(\.path)
            change(context, arguments[0], reply) { playlists throws(StoredPlaylistError) in
                switch mode {
                case "append":
                    let existing = (try? playlists.entries(arguments[0])) ?? []
                    try playlists.write(arguments[0], existing + queue)
                default: try playlists.write(arguments[0], queue, replacing: mode == "replace")
                }
            }
        },
        MPDCommand("rm", 1...1, .control) { context, arguments, reply in
            change(context, arguments[0], reply) { playlists throws(StoredPlaylistError) in
                try playlists.remove(arguments[0])
            }
        },
        MPDCommand("rename", 2...2, .control) { context, arguments, reply in
            change(context, arguments[0], reply) { playlists throws(StoredPlaylistError) in
                try playlists.rename(arguments[0], to: arguments[1])
            }
        },
        MPDCommand("playlistclear", 1...1, .control) { context, arguments, reply in
            change(context, arguments[0], reply) { playlists throws(StoredPlaylistError) in
                _ = try playlists.entries(arguments[0])  // it must be there
                try playlists.write(arguments[0], [])
            }
        },
        MPDCommand("playlistadd", 2...3, .add) { context, arguments, reply in
            guard let path = MPDSongFormat.path(ofURI: arguments[1], roots: context.roots) else {
                return reply(.failure(MPDError(.noExist, "No such directory")))
            }
            var position: Int?
            if arguments.count > 2 {
                switch MPDArgument.unsigned(arguments[2], maximum: Int.max) {
                case .success(let value): position = value
                case .failure(let error): return reply(.failure(error))
                }
            }
            change(context, arguments[0], reply) { [position] playlists throws(StoredPlaylistError) in
                var entries: [String] = []
                do throws(StoredPlaylistError) {
                    entries = try playlists.entries(arguments[0])
                } catch .missing {
                    // playlistadd makes the playlist.
                }
                let at = position ?? entries.count
                guard at <= entries.count else { throw .failed("Bad song index") }
                entries.insert(path, at: at)
                try playlists.write(arguments[0], entries)
            }
        },
        MPDCommand("playlistdelete", 2...2, .control) { context, arguments, reply in
            change(context, arguments[0], reply) { playlists throws(StoredPlaylistError) in
                var entries = try playlists.entries(arguments[0])
                // One position or a range (protocol 0.23.3).
                guard case .success(let range) = MPDArgument.range(arguments[1], count: entries.count),
                    !range.isEmpty
                else { throw .failed("Bad song index") }
                entries.removeSubrange(range)
                try playlists.write(arguments[0], entries)
            }
        },
    ]

    private static func entries(_ context: MPDContext, _ name: String) -> Result<[String], MPDError> {
        guard let playlists = context.playlists else { return .failure(MPDError(.noExist, "No such playlist")) }
        do {
            return .success(try playlists.entries(name))
        } catch {
            return .failure(error.mpd)
        }
    }

    /// Changes the playlist `name`, then tells `idle` (`stored_playlist`).
    private static func change(
        _ context: MPDContext, _ name: String, _ reply: MPDReply,
        _ body: (StoredPlaylists) throws(StoredPlaylistError) -> Void
    ) {
        guard let playlists = context.playlists else {
            return reply(.failure(MPDError(.system, "no folder for stored playlists (no XDG_CONFIG_HOME or HOME)")))
        }
        do {
            try body(playlists)
            context.changed(["stored_playlist"])
            reply(.success([]))
        } catch {
            reply(.failure(error.mpd))
        }
    }

    /// Each entry's song lines from the library, or its `file:` line alone.
    /// Each path with its library song (nil where the library has none), one query at a time,
    /// then `done`.
    private static func lookUp(
        _ context: MPDContext, _ paths: [String], found: [(path: String, song: LibrarySong?)] = [],
        _ done: @escaping ([(path: String, song: LibrarySong?)]) -> Void
    ) {
        guard let path = paths.first else { return done(found) }
        let query = LibraryQuery(filters: [.init(LibraryField.named("path")!, .equalTo, path)], limit: 1)
        context.perform(.library(.query(query))) { result in
            var song: LibrarySong?
            if case .success(.library(let page)) = result, case .songs(let songs) = page.items { song = songs.first }
            lookUp(context, Array(paths.dropFirst()), found: found + [(path, song)], done)
        }
    }

    /// Each entry's lines: a song the library knows with its tags, another by its file alone.
    private static func lines(of entries: [(path: String, song: LibrarySong?)], _ context: MPDContext) -> [String] {
        entries.flatMap { entry in
            entry.song.map { MPDSongFormat.lines(path: $0.path, $0.metadata, roots: context.roots, tags: context.tags) }
                ?? ["file: \(MPDSongFormat.uri(entry.path, roots: context.roots))"]
        }
    }
}

extension StoredPlaylistError {
    /// The error as MPD reports it.
    var mpd: MPDError {
        switch self {
        case .badName: MPDError(.argument, "Bad playlist name")
        case .missing: MPDError(.noExist, "No such playlist")
        case .exists: MPDError(.exist, "Playlist already exists")
        case .failed(let message) where message == "Bad song index": MPDError(.argument, message)
        case .failed(let message): MPDError(.system, message)
        }
    }
}
