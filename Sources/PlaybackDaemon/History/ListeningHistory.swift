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
final class ListeningHistory: Subsystem {
    static let fileName = "history.sqlite"
    private let path: String
    private let worker: BackgroundWorker
    private let log: DaemonLog
    /// The worker's connection; nil until the first hearing (or until it can be opened).
    private var database: HistoryDatabase?
    /// What went wrong last, on the worker: said once.
    private var lastProblem: String?

    init(path: String, loop: EventLoop, log: DaemonLog) {
        self.path = path
        self.log = log
        worker = BackgroundWorker(name: "pbd-history", loop: loop)
    }

    /// `$STATE_DIRECTORY` (systemd's) or the XDG state directory, with the file's name; nil
    /// without either.
    static func defaultPath(environment: Environment) -> String? {
        (XDGDirectories.systemd("STATE_DIRECTORY", environment: environment)
            ?? XDGDirectories.state(environment: environment)).map { $0 + "/" + fileName }
    }

    /// What the step heard, recorded (the file is made with the first hearing).
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        let heard = events.filter {
            switch $0 {
            case .listened, .itemHeard: true
            default: false
            }
        }
        guard !heard.isEmpty else { return }
        worker.submit { [unowned self] in
            do throws(SQLiteError) {
                try open(creating: true)?.record(heard)
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
    func stop(_ last: PlayerView) { worker.stop() }
}
