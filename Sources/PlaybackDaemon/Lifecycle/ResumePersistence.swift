import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Resume as a subsystem: at start it reads the state file (when there is one) and hands it to
/// the player; after every meaningful change, and every few seconds while playing, it saves
/// what the published view says; at the end it writes the last state, the position heard after
/// the fade.
final class ResumePersistence: Subsystem {
    private let loop: EventLoop
    private let log: DaemonLog
    private let mode: ResumeMode
    private let path: String?
    private var persister: StatePersister?
    /// Hands a saved state to the player (`PlayerService.restore`); returns the view after it.
    private let restore: (ResumeState) -> PlayerView
    /// The last published view: what the next save writes.
    private var latest: PlayerView?
    /// Saves the position every `StatePersister.playingInterval` while playing.
    private let saveTimer: OneShotTimer

    init(
        path: String?, mode: ResumeMode, loop: EventLoop, log: DaemonLog,
        restore: @escaping (ResumeState) -> PlayerView
    ) {
        self.path = path
        self.mode = mode
        self.loop = loop
        self.log = log
        self.restore = restore
        saveTimer = OneShotTimer(loop: loop, accuracy: 0.25)
    }

    /// Reads the state file and hands it to the player. A file that cannot be read as a state
    /// is set aside with a warning; the daemon starts empty.
    func start() throws(SubsystemError) {
        guard let path else {
            return log.warning("no state directory (neither STATE_DIRECTORY, XDG_STATE_HOME nor HOME): resume is off")
        }
        let file = StateFile(path: path)
        persister = StatePersister(file: file, loop: loop, log: log)
        guard mode != .off else { return }
        switch file.load() {
        case .none:
            break
        case .corrupt(let error, let aside):
            log.warning(
                "the state file \(path) is unreadable (\(error)); "
                    + (aside.map { "moved it to \($0)" } ?? "could not move it aside") + "; starting empty",
                event: "state-corrupt")
        case .state(let saved):
            let snapshot = restore(saved).nowPlaying
            log.info(
                "resumed \(snapshot.queueCount) items from \(path)"
                    + (snapshot.queueIndex.map { ", at item \($0)" } ?? ""), event: "resumed")
        }
    }

    func ready(_ view: PlayerView) { latest = view }

    func publish(_ view: PlayerView, changes: ChangeSet) {
        latest = view
        if !changes.isDisjoint(with: [.queue, .item, .position, .state, .commands, .modes, .volume, .equalizer, .rate])
        {
            persist()
        }
    }

    /// Saves on the worker; while playing, again every few seconds.
    private func persist() {
        guard let persister, let latest else { return }
        persister.save(latest.resumeState(at: WallClock.now()))
        if latest.nowPlaying.state == .playing {
            if !saveTimer.isArmed {
                saveTimer.arm(after: StatePersister.playingInterval) { [unowned self] in persist() }
            }
        } else {
            saveTimer.cancel()
        }
    }

    func stop(_ last: PlayerView) {
        saveTimer.cancel()
        persister?.saveNow(last.resumeState(at: WallClock.now()))
        persister?.stop()
    }
}
