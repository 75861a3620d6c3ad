import PlaybackModel

/// The one-line status systemd shows (`STATUS=`), sent when it changes, and a log line for
/// every change of state or item.
final class SystemdStatus: Subsystem {
    private let notifier: SystemdNotifier
    private let log: DaemonLog
    private let snapshot: () -> NowPlaying
    /// The line systemd shows now.
    private(set) var line = ""

    init(notifier: SystemdNotifier, log: DaemonLog, snapshot: @escaping () -> NowPlaying) {
        self.notifier = notifier
        self.log = log
        self.snapshot = snapshot
    }

    /// The first line, for `READY=1`: after the resume state, which may have restored an item.
    func start() throws(SubsystemError) { line = SystemdNotifier.summary(snapshot()) }

    func publish(_ snapshot: NowPlaying, changes: ChangeSet) {
        let status = SystemdNotifier.summary(snapshot)
        if status != line {
            line = status
            notifier.status(status)
        }
        if changes.contains(.state) || changes.contains(.item) {
            log.log(.info, status, event: snapshot.state.rawValue, track: snapshot.item?.path)
        }
    }
}
