import PlaybackModel

/// The audio route as a value: the latest route change (for the snapshot), what a lost device
/// does (`on-route-lost`) and what a new one does to playback a lost one paused
/// (`on-route-back`), and whether the pause in effect is one a lost device caused (only that
/// one resumes itself).
struct RouteState: Equatable {
    private(set) var lastChange: RouteChange?
    private(set) var onLost: RouteLostAction
    private(set) var onBack: RouteBackAction
    private(set) var isPausedByLoss = false

    init(onLost: RouteLostAction, onBack: RouteBackAction) {
        self.onLost = onLost
        self.onBack = onBack
    }

    mutating func note(_ change: RouteChange) -> ChangeSet {
        lastChange = change
        return .route
    }

    /// The pause in effect is a lost device's (`true`), or another's.
    mutating func setPausedByLoss(_ paused: Bool) { isPausedByLoss = paused }

    /// A reload's policy.
    mutating func setPolicy(onLost: RouteLostAction, onBack: RouteBackAction) {
        self.onLost = onLost
        self.onBack = onBack
    }
}
