import PlaybackModel

/// `idle-exit = SECONDS`: ends the loop once the daemon has been stopped, with an empty queue
/// and no client, for that long (the socket unit starts it again on the next command). The
/// clients connected are counted from the published events.
final class IdleExit: Subsystem {
    private let timer: OneShotTimer
    private var seconds: Double
    /// Clients connected to the control socket.
    private var clients = 0
    /// Whether the last published view was stopped with nothing queued.
    private var isPlayerIdle = false
    private let exit: () -> Void
    private let log: DaemonLog

    init(loop: EventLoop, seconds: Double, log: DaemonLog, exit: @escaping () -> Void) {
        timer = OneShotTimer(loop: loop, accuracy: 0.25)
        self.seconds = seconds
        self.log = log
        self.exit = exit
    }

    /// Arms the timer when idle, disarms it when not.
    private func evaluate() {
        guard seconds > 0 && isPlayerIdle && clients == 0 else { return timer.cancel() }
        guard !timer.isArmed else { return }
        timer.arm(after: seconds) { [unowned self] in
            log.notice("idle for \(seconds) s with nothing queued: exiting", event: "idle-exit")
            exit()
        }
    }

    func ready(_ view: PlayerView) {
        isPlayerIdle = view.isIdle
        evaluate()
    }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        isPlayerIdle = view.isIdle
        for case .clientsConnected(let count) in events { clients = count }
        evaluate()
    }

    func reload(_ settings: DaemonSettings) {
        seconds = settings.idleExitSeconds
        timer.cancel()  // re-armed with the new time, if still idle
        evaluate()
    }

    func beginStopping() { timer.cancel() }
}
