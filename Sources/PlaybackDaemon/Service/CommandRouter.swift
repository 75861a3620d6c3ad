import ControlProtocol
import PlaybackModel

/// The daemon's one command handler, which every front end calls. Where each command is
/// carried out follows from its case (`Command`), in one switch the compiler checks: the
/// player's state, the prober, the presets' files, the library. A disabled remote command is
/// refused here, for every front end.
struct CommandRouter {
    unowned let service: PlayerService
    let library: MusicLibrary?
    let history: ListeningHistory?

    func handle(_ command: Command, reply: @escaping (CommandResult) -> Void) {
        guard service.admits(command, otherwise: { handle(command, reply: reply) }) else { return }
        if let refusal = service.state.refusal(of: command.name) { return reply(.failure(refusal)) }
        switch command {
        case .player(let operation):
            service.perform(operation, reply: reply)
        case .enqueue(let paths, let placement, let replace, let play):
            service.enqueueInBackground(paths, placement: placement, replace: replace, play: play, reply: reply)
        case .enqueueLibrary(let selection, let placement, let replace, let play):
            guard let library else { return reply(.failure(Self.noLibrary)) }
            switch library.songs(selection) {
            case .failure(let failure): reply(.failure(failure))
            case .success(let found):
                let first = service.itemIDs.reserve(found.songs.count)
                let items = found.songs.enumerated().map { offset, song in
                    QueueItem(id: first + UInt64(offset), path: song.path, metadata: song.metadata)
                }
                let rejected = found.unknown.map { Rejection(path: $0, reason: "no song, album or artist has this id") }
                // Their metadata is known: nothing to probe.
                reply(
                    service.step { state, moment in
                        state.enqueue(
                            items, rejected: rejected, placement: placement, replace: replace, play: play, at: moment)
                    })
            }
        case .nowPlaying, .subscribe:
            reply(.success(.nowPlaying(service.nowPlaying())))
        case .presets(let request):
            reply(service.step { [presets = service.presets] state, _ in presets.perform(request, on: &state) })
        case .library(let request):
            guard let library else { return reply(.failure(Self.noLibrary)) }
            library.handle(request, currentPath: service.state.queue.current?.path, reply: reply)
        case .listeningHistory(let offset, let limit, let since, let until):
            guard let history else { return reply(.failure(Self.noHistory)) }
            history.page(offset: offset, limit: limit, since: since, until: until, reply: reply)
        case .scrobbleStatus:
            guard let history else { return reply(.failure(Self.noHistory)) }
            reply(history.scrobbleStatus())
        case .scrobbleLogin(let service, let token):
            guard let history else { return reply(.failure(Self.noHistory)) }
            history.scrobbleLogin(service, token: token, reply: reply)
        }
    }

    private static let noHistory = CommandFailure(
        .commandFailed, "there is no listening history: no state directory to keep it in")

    private static let noLibrary = CommandFailure(
        .commandFailed, "there is no library: no home directory to keep it in")
}
