import ControlProtocol
import PlaybackModel

/// MPD's stickers, for the songs of the library: `rating` (0 - 10, as Cantata and myMPD keep
/// it: the library's 0 - 5 stars, doubled) can be set; `playCount`, `skipCount` and
/// `lastPlayed` (seconds since the epoch) are the library's statistics, read-only.
extension MPDCommands {
    static let stickers: [MPDCommand] = [
        MPDCommand("sticker", 3...5, .admin) { context, arguments, reply in
            guard arguments[1] == "song" else {
                return reply(.failure(MPDError(.argument, "no such sticker type: \(arguments[1])")))
            }
            let (verb, uri) = (arguments[0], arguments[2])
            switch (verb, arguments.count) {
            case ("get", 4), ("list", 3):
                song(context, uri, reply) { song in
                    let values = stickerValues(song)
                    guard verb == "get" else { return .success(values.map { "sticker: \($0.0)=\($0.1)" }) }
                    guard let value = values.first(where: { $0.0 == arguments[3] })?.1 else {
                        return .failure(MPDError(.noExist, "no such sticker"))
                    }
                    return .success(["sticker: \(arguments[3])=\(value)"])
                }
            case ("set", 5), ("delete", 3), ("delete", 4):
                guard verb == "delete" || arguments[3] == "rating" else {
                    return reply(.failure(MPDError(.argument, "only the rating sticker can be set here")))
                }
                var stars = 0
                if verb == "set" {
                    guard let value = Int(arguments[4]), (0...10).contains(value) else {
                        return reply(.failure(MPDError(.argument, "a rating is 0 to 10")))
                    }
                    stars = (value + 1) / 2
                }
                song(
                    context, uri,
                    { result in
                        guard case .success(let ids) = result, let id = ids.first else {
                            return reply(result.map { _ in [] })
                        }
                        context.run(.library(.setRating(id: id, rating: stars)), reply)
                    }
                ) { .success([$0.id]) }
            case ("find", 4):
                guard let folder = MPDSongFormat.path(ofURI: uri, roots: context.roots) else {
                    return reply(.failure(MPDError(.noExist, "No such directory")))
                }
                var query = LibraryQuery(entity: .songs, sort: [LibraryQuery.SortKey("path")])
                if folder != context.roots.first {
                    query.filters = [.init(LibraryField.named("path")!, .startsWith, folder + "/")]
                }
                fetch(context, query) { result in
                    reply(
                        result.map { songs in
                            songs.flatMap { song -> [String] in
                                guard let value = stickerValues(song).first(where: { $0.0 == arguments[3] })?.1 else {
                                    return []
                                }
                                return [
                                    "file: \(MPDSongFormat.uri(song.path, roots: context.roots))",
                                    "sticker: \(arguments[3])=\(value)",
                                ]
                            }
                        })
                }
            default:
                reply(.failure(MPDError(.argument, "bad request")))
            }
        }
    ]

    /// A song's stickers: the rating when it has one, the counts, when it was last played.
    private static func stickerValues(_ song: LibrarySong) -> [(String, String)] {
        let statistics = song.statistics
        var values: [(String, String)] = []
        if statistics.rating > 0 { values.append(("rating", String(statistics.rating * 2))) }
        values.append(("playCount", String(statistics.playCount)))
        values.append(("skipCount", String(statistics.skipCount)))
        if let played = statistics.lastPlayed { values.append(("lastPlayed", String(Int(played)))) }
        return values
    }

    /// The library's song at `uri`, made into a reply by `body`.
    private static func song(
        _ context: MPDContext, _ uri: String, _ reply: @escaping MPDReply,
        _ body: @escaping (LibrarySong) -> Result<[String], MPDError>
    ) {
        guard let path = MPDSongFormat.path(ofURI: uri, roots: context.roots) else {
            return reply(.failure(MPDError(.noExist, "No such song")))
        }
        fetch(context, LibraryQuery(filters: [.init(LibraryField.named("path")!, .equalTo, path)])) { result in
            switch result {
            case .failure(let error): reply(.failure(error))
            case .success(let songs):
                guard let song = songs.first else { return reply(.failure(MPDError(.noExist, "No such song"))) }
                reply(body(song))
            }
        }
    }
}
