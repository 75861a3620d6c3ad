import PlaybackModel

/// `idle-exit = SECONDS`: ends the loop once the daemon has been stopped, with an empty queue
/// and no client, for that long (the socket unit starts it again on the next command).
final class IdleExit: Subsystem {
    private let timer: OneShotTimer
    private var seconds: Double
    private let isIdle: () -> Bool
    private let exit: () -> Void
    private let log: DaemonLog

    init(loop: ControlLoop, seconds: Double, log: DaemonLog, isIdle: @escaping () -> Bool, exit: @escaping () -> Void) {
        timer = OneShotTimer(loop: loop, accuracy: 0.25)
        self.seconds = seconds
        self.log = log
        self.isIdle = isIdle
        self.exit = exit
    }

    /// Arms the timer when idle, disarms it when not.
    func evaluate() {
        guard seconds > 0 && isIdle() else { return timer.cancel() }
        guard !timer.isArmed else { return }
        timer.arm(after: seconds) { [unowned self] in
            log.notice("idle for \(seconds) s with nothing queued: exiting", event: "idle-exit")
            exit()
        }
    }

    func ready(_ snapshot: NowPlaying) { evaluate() }

    func publish(_ snapshot: NowPlaying, changes: ChangeSet) { evaluate() }

    func reload(_ settings: DaemonSettings) {
        seconds = settings.idleExitSeconds
        timer.cancel()  // re-armed with the new time, if still idle
        evaluate()
    }

    func beginStopping() { timer.cancel() }
}
