import PlaybackModel

/// The one-line status systemd shows (`STATUS=`), sent when it changes, and a log line for
/// every change of state or item.
final class SystemdStatus: Subsystem {
    private let notifier: SystemdNotifier
    private let log: DaemonLog
    /// The line systemd shows now.
    private(set) var line = ""

    init(notifier: SystemdNotifier, log: DaemonLog) {
        self.notifier = notifier
        self.log = log
    }

    /// The first line, for `READY=1`: after the resume state, which may have restored an item.
    func ready(_ view: PlayerView) { line = SystemdNotifier.summary(view.nowPlaying) }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        let snapshot = view.nowPlaying
        let status = SystemdNotifier.summary(snapshot)
        if status != line {
            line = status
            notifier.status(status)
        }
        if changes.contains(.state) || changes.contains(.item) {
            // A URL's credentials stay out of the journal.
            log.log(
                .info, status, event: snapshot.state.rawValue, track: snapshot.item.map { StreamURL.redacted($0.path) })
        }
    }
}
