import PlaybackModel

/// The audio route as a value: whether the output is on, the latest route change (for the
/// snapshot), what a lost device does (`on-route-lost`) and what a new one does to playback a
/// lost one paused (`on-route-back`), and whether the pause in effect is one a lost device
/// caused (only that one resumes itself).
struct RouteState: Equatable {
    private(set) var lastChange: RouteChange?
    private(set) var onLost: RouteLostAction
    private(set) var onBack: RouteBackAction
    private(set) var isPausedByLoss = false
    /// Off, nothing plays (`setOutputEnabled`, MPD's `disableoutput`).
    private(set) var outputEnabled = true

    init(onLost: RouteLostAction, onBack: RouteBackAction) {
        self.onLost = onLost
        self.onBack = onBack
    }

    mutating func note(_ change: RouteChange) -> ChangeSet {
        lastChange = change
        return .route
    }

    /// Switches the output on or off.
    mutating func setOutputEnabled(_ enabled: Bool) -> ChangeSet {
        guard enabled != outputEnabled else { return [] }
        outputEnabled = enabled
        return .output
    }

    /// The pause in effect is a lost device's (`true`), or another's.
    mutating func setPausedByLoss(_ paused: Bool) { isPausedByLoss = paused }

    /// A reload's policy.
    mutating func setPolicy(onLost: RouteLostAction, onBack: RouteBackAction) {
        self.onLost = onLost
        self.onBack = onBack
    }
}

extension RouteState {
    /// What the log says of `change`, playback having gone from `before` to `after` (`failure`:
    /// why it could not resume): its level, line and event.
    func logLine(
        for change: RouteChange, before: PlaybackState, after: PlaybackState, failure: CommandFailure?
    ) -> (level: DaemonLog.Level, line: String, event: String?) {
        switch change.reason {
        case .oldDeviceUnavailable:
            var outcome = ""
            if before == .playing || before == .interrupted {
                outcome =
                    onLost == .pause
                    ? ": paused (on-route-lost = pause)"
                    : ": \(before == .playing ? "playing on" : "still interrupted") (on-route-lost = continue)"
            }
            return (.notice, "the output device '\(change.device)' went away\(outcome)", "route-lost")
        case .newDeviceAvailable:
            if let failure {
                return (.error, "cannot resume on the new output device '\(change.device)': \(failure.message)", nil)
            }
            if before == .paused && after == .playing {
                return (
                    .notice, "a new output device appeared: '\(change.device)': resumed (on-route-back = resume)",
                    "route-new"
                )
            }
            return (.info, "a new output device appeared: '\(change.device)'", "route-new")
        }
    }
}
