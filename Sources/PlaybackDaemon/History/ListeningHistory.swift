import CSQLite
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The listening history (docs/history.md) as a subsystem: every hearing a step reports
/// (`PlayerEvent.listened`, `.itemHeard`) is recorded in `history.sqlite` in the state
/// directory, on a thread of its own, so the event loop never waits on the disk; a listen is
/// durable the moment it counts. The file is made with the first hearing. `listeningHistory`
/// is answered from the same thread, after the writes queued before it.
///
/// The scrobblers (docs/scrobbling.md) subscribe to it: each is told what plays, and woken
/// when a listen is committed, to send what its service has not had.
final class ListeningHistory: Subsystem {
    static let fileName = "history.sqlite"
    private let path: String
    private let worker: BackgroundWorker
    private let log: DaemonLog
    private let settings: ScrobbleSettings
    /// One per service configured.
    private var scrobblers: [Scrobbler] = []
    /// The worker's connection; nil until the first hearing (or until it can be opened).
    private var database: HistoryDatabase?
    /// What went wrong last, on the worker: said once.
    private var lastProblem: String?

    init(path: String, scrobbling: ScrobbleSettings, loop: EventLoop, log: DaemonLog) {
        self.path = path
        self.log = log
        settings = scrobbling
        worker = BackgroundWorker(name: "pbd-history", loop: loop)
        scrobblers = ScrobbleService.allCases.compactMap { service in
            ScrobbleCredentials(service: service, settings: scrobbling, stateDirectory: directory).map { credentials in
                Scrobbler(
                    service: service, historyPath: path, loop: loop, makeClient: credentials.client,
                    said: { service, problem in
                        if let problem {
                            log.warning("\(service.rawValue): \(problem)")
                        } else {
                            log.notice("\(service.rawValue): sending again")
                        }
                    })
            }
        }
    }

    /// The folder of the history (the state directory).
    private var directory: String { String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }

    func start() throws(SubsystemError) {
        for scrobbler in scrobblers { scrobbler.start() }
    }

    func reload(_ settings: DaemonSettings) {
        for scrobbler in scrobblers { scrobbler.reread() }
    }

    /// `$STATE_DIRECTORY` (systemd's) or the XDG state directory, with the file's name; nil
    /// without either.
    static func defaultPath(environment: Environment) -> String? {
        (XDGDirectories.systemd("STATE_DIRECTORY", environment: environment)
            ?? XDGDirectories.state(environment: environment)).map { $0 + "/" + fileName }
    }

    /// What the step heard, recorded (the file is made with the first hearing).
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        var heard: [PlayerEvent] = []
        var listens = false
        for event in events {
            switch event {
            case .itemAudible(let item, let began) where !scrobblers.isEmpty:
                let listen = Listen(playing: item, began: began)
                if listen.isScrobblable { for scrobbler in scrobblers { scrobbler.playing(listen) } }
            case .listened:
                heard.append(event)
                listens = true
            case .itemHeard(let item):
                heard.append(event)
                listens = listens || item.isListen
            default: break
            }
        }
        guard !heard.isEmpty else { return }
        worker.submit { [unowned self, scrobblers] in
            do throws(SQLiteError) {
                try open(creating: true)?.record(heard)
                if listens { for scrobbler in scrobblers { scrobbler.listensRecorded() } }
                return said(nil)
            } catch {
                return said("cannot record what was heard: \(error)")
            }
        }
    }

    /// Answers `listeningHistory` with a page of it, once the writes queued before are done;
    /// an empty page while nothing was ever heard.
    func page(offset: Int, limit: Int, since: Double?, until: Double?, reply: @escaping (CommandResult) -> Void) {
        worker.submit { [unowned self] in
            let result: CommandResult
            do throws(SQLiteError) {
                let page = try open(creating: false)?.page(offset: offset, limit: limit, since: since, until: until)
                result = .success(.listeningHistory(page ?? ListenPage(listens: [], total: 0)))
            } catch {
                result = .failure(CommandFailure(.commandFailed, "the listening history cannot be read: \(error)"))
            }
            return { reply(result) }
        }
    }

    /// Answers `scrobbleStatus`: every service, configured or not.
    func scrobbleStatus() -> CommandResult {
        .success(
            .scrobbleStatus(
                ScrobbleService.allCases.map { service in
                    scrobblers.first { $0.service == service }?.state
                        ?? ScrobbleState(service: service.rawValue, enabled: false)
                }))
    }

    /// Answers `scrobbleLogin`: a step of Last.fm's authorisation, on its scrobbler's thread.
    func scrobbleLogin(_ service: ScrobbleService, token: String?, reply: @escaping (CommandResult) -> Void) {
        guard let scrobbler = scrobblers.first(where: { $0.service == service }),
            let authorization = ScrobbleCredentials.lastFMAuthorization(settings, stateDirectory: directory)
        else {
            return reply(
                .failure(
                    CommandFailure(
                        .commandFailed,
                        "\(service.rawValue) is not configured: set lastfm-api-key and lastfm-api-secret-file")))
        }
        scrobbler.perform { exchange in
            let result = authorization.flatMap { authorization in
                token.map { authorization.complete($0, exchange) } ?? authorization.begin(exchange)
            }
            return { reply(result.map(CommandOutcome.scrobbleLogin)) }
        }
    }

    /// The worker's connection, opened the first time it is needed; nil while there is no file
    /// and `creating` is false.
    private func open(creating: Bool) throws(SQLiteError) -> HistoryDatabase? {
        if let database { return database }
        guard creating || access(path, F_OK) == 0 else { return nil }
        if let problem = FileSystem.makeDirectories(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])) {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: problem)
        }
        database = try HistoryDatabase(path: path)
        return database
    }

    /// A completion that logs `problem` when it differs from the last one said (a full disk is
    /// said once, not at every hearing), or that the history is kept again.
    private func said(_ problem: String?) -> () -> Void {
        guard problem != lastProblem else { return {} }
        let (log, before) = (log, lastProblem)
        lastProblem = problem
        return {
            if let problem {
                log.error("the listening history: \(problem)")
            } else if before != nil {
                log.notice("the listening history is kept again")
            }
        }
    }

    /// The last hearings (those the exit ended) are written before the thread ends.
    func stop(_ last: PlayerView) {
        worker.stop()
        for scrobbler in scrobblers { scrobbler.stop() }
    }
}
