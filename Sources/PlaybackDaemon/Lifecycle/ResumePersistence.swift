import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Resume as a subsystem: at start it reads the state file (when there is one) and hands it to
/// the player; it saves what a published view says whenever that differs from what it saved
/// last (`ResumeSaveRule`), every few seconds while playing what the player's view says then,
/// and at the end the last state, the position heard after the fade. A long queue's file is read in two steps: its head at once, for the player to
/// show, and the whole on a thread of its own (`pbd-resume`); nothing is saved in between.
/// The item lines of the file read are the persister's to copy while the queue holds the items
/// read from them.
final class ResumePersistence: Subsystem {
    /// What the player does with what is read.
    struct Restoring {
        /// Takes a saved state (`ResumeRestorer.restore`); returns the view after it.
        var restore: (ResumeState) -> PlayerView
        /// Shows a long queue's head (`ResumeRestorer.restoreHead`).
        var showHead: (ResumeState, QueueLoading) -> Void
        /// The whole of a long queue could not be read (`ResumeRestorer.abandonLoading`).
        var abandon: () -> Void
    }

    private let loop: EventLoop
    private let log: DaemonLog
    private let mode: ResumeMode
    private let path: String?
    private var persister: StatePersister?
    private let restoring: Restoring
    /// Reads the whole of a long queue's file.
    private var reader: BackgroundWorker?
    /// The player's view now (`PlayerService.view`). Not a view kept from the last publish:
    /// that would keep the queue's items as they were for as long as nothing is published.
    private let current: () -> PlayerView
    /// Whether the player is ready: nothing is saved before.
    private var isReady = false
    /// Whether the player is taking a state read from the file: it is saved after.
    private var isRestoring = false
    /// Saves the position every `StatePersister.playingInterval` while playing.
    private let saveTimer: OneShotTimer
    /// Whether a view's state differs from the one saved last.
    private var rule = ResumeSaveRule()

    init(
        path: String?, mode: ResumeMode, loop: EventLoop, log: DaemonLog, restoring: Restoring,
        current: @escaping () -> PlayerView
    ) {
        self.current = current
        self.path = path
        self.mode = mode
        self.loop = loop
        self.log = log
        self.restoring = restoring
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
        take(file.load(), from: file)
    }

    private func take(_ loaded: StateFile.Loaded, from file: StateFile) {
        switch loaded {
        case .none:
            break
        case .corrupt(let error, let aside):
            log.warning(
                "the state file \(file.path) is unreadable (\(error)); "
                    + (aside.map { "moved it to \($0)" } ?? "could not move it aside") + "; starting empty",
                event: "state-corrupt")
            // Found in the rest of a long queue's file: its head was shown.
            if reader != nil { restoring.abandon() }
        case .state(let saved, let lines):
            // Saved once the file's lines are adopted, not while the player takes the state.
            isRestoring = true
            let view = restoring.restore(saved)
            isRestoring = false
            let restored = view.resumeState(at: WallClock.now())
            if let lines, restored.items == saved.items { persister?.adopt(lines, version: restored.itemsVersion) }
            persist(view)
            let snapshot = view.nowPlaying
            log.info(
                "resumed \(snapshot.queueCount) items from \(file.path)"
                    + (snapshot.queueIndex.map { ", at item \($0)" } ?? ""), event: "resumed")
        case .head(let head, let loading, let rest):
            restoring.showHead(head, loading)
            let reader = BackgroundWorker(name: "pbd-resume", loop: loop)
            self.reader = reader
            reader.submit {
                let whole = file.load(whole: rest)
                return { [unowned self] in take(whole, from: file) }
            }
        }
    }

    func ready(_ view: PlayerView) { isReady = true }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) { persist(view) }

    /// Saves `view` on the worker when its state differs from the one saved last, or `always`
    /// (not while a long queue is read); while playing, the view then again every few seconds.
    private func persist(_ view: PlayerView, always: Bool = false) {
        guard let persister, isReady, !isRestoring, !view.isLoading else { return }
        let now = WallClock.now()
        let state = view.resumeState(at: now)
        if always || rule.differs(state, at: now) {
            persister.save(state)
            rule.wrote(state, at: now, rate: view.nowPlaying.rate)
        }
        if view.nowPlaying.state == .playing {
            if !saveTimer.isArmed {
                saveTimer.arm(after: StatePersister.playingInterval) { [unowned self] in
                    persist(current(), always: true)
                }
            }
        } else {
            saveTimer.cancel()
        }
    }

    /// Writes the last state, unless a long queue was still being read: the file holds it
    /// whole, and nothing has changed (commands waited for it).
    func stop(_ last: PlayerView) {
        saveTimer.cancel()
        reader?.stop()
        if !last.isLoading { persister?.saveNow(last.resumeState(at: WallClock.now())) }
        persister?.stop()
    }
}
