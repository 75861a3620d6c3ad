import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// Resume as a subsystem: at start it reads the state file (when there is one) and hands it to
/// the service; after every meaningful change, and every few seconds while playing, it saves;
/// at the end it writes the last state, the position heard after the fade.
final class ResumePersistence: Subsystem {
    private let service: PlayerService
    private let loop: ControlLoop
    private let log: DaemonLog
    private let mode: ResumeMode
    private let path: String?
    private var persister: StatePersister?
    /// Saves the position every `StatePersister.playingInterval` while playing.
    private let saveTimer: OneShotTimer

    init(service: PlayerService, path: String?, mode: ResumeMode, loop: ControlLoop, log: DaemonLog) {
        self.service = service
        self.path = path
        self.mode = mode
        self.loop = loop
        self.log = log
        saveTimer = OneShotTimer(loop: loop, accuracy: 0.25)
    }

    /// Reads the state file and hands it to the service. A file that cannot be read as a state
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
            service.restore(saved, fileExists: { access($0, F_OK) == 0 }, play: mode == .playing)
            log.info(
                "resumed \(service.queue.count) items from \(path)"
                    + (service.queue.currentIndex.map { ", at item \($0)" } ?? ""), event: "resumed")
        }
    }

    func publish(_ snapshot: NowPlaying, changes: ChangeSet) {
        if !changes.isDisjoint(with: [.queue, .item, .position, .state, .commands, .modes, .volume, .equalizer, .rate]) { persist() }
    }

    /// Saves on the worker; while playing, again every few seconds.
    private func persist() {
        guard let persister else { return }
        persister.save(service.resumeState())
        if service.state == .playing {
            if !saveTimer.isArmed {
                saveTimer.arm(after: StatePersister.playingInterval) { [unowned self] in persist() }
            }
        } else {
            saveTimer.cancel()
        }
    }

    func stop() {
        saveTimer.cancel()
        persister?.saveNow(service.resumeState())
    }
}
