import ControlProtocol
import PlaybackModel

/// The daemon's one command handler, which every front end calls: the library's commands go
/// to the library, everything else to the player; `enqueue` of library songs takes them from
/// the library into the player's queue (with their metadata: nothing is probed).
struct CommandRouter {
    unowned let service: PlayerService
    let library: MusicLibrary?

    func handle(_ command: Command, reply: @escaping (CommandResult) -> Void) {
        guard let library, Self.isLibrary(command) else { return service.handle(command, reply: reply) }
        switch command {
        case .enqueueLibrary(let selection, let placement, let replace, let play):
            // After a long queue being read at start: its items' ids come first.
            service.afterLoading { [service] in
                switch library.songs(selection) {
                case .failure(let failure): reply(.failure(failure))
                case .success(let found):
                    let first = service.itemIDs.reserve(found.songs.count)
                    let items = found.songs.enumerated().map { offset, song in
                        QueueItem(id: first + UInt64(offset), path: song.path, metadata: song.metadata)
                    }
                    let rejected = found.unknown.map {
                        Rejection(path: $0, reason: "no song, album or artist has this id")
                    }
                    // Their metadata is known: nothing to probe.
                    reply(
                        service.step { state, moment in
                            state.enqueue(
                                items, rejected: rejected, placement: placement, replace: replace, play: play,
                                at: moment)
                        })
                }
            }
        case .setRating(let id, let rating):
            library.setRating(rating, id: id, currentPath: service.state.queue.current?.path, reply: reply)
        default:
            reply(library.handle(command) ?? .failure(CommandFailure(.commandFailed, "not a library command")))
        }
    }

    private static func isLibrary(_ command: Command) -> Bool {
        switch command {
        case .enqueueLibrary, .libraryQuery, .libraryUpdate, .libraryStatus, .libraryFailures, .setRating: true
        default: false
        }
    }
}
