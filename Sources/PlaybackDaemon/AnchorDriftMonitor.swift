import PlaybackModel

/// Keeps the pushed `(elapsed, rate, timestamp)` true while playing. The first anchor after a
/// start comes from a device that has only just begun (PulseAudio's reported delay settles
/// over the first second), so the clients' extrapolation can drift from the audio by tens of
/// milliseconds. While playing, every `interval` this compares the last pushed snapshot,
/// extrapolated, with a fresh measurement and asks for a new push when they differ by more
/// than `tolerance`. Never armed while paused or stopped: idle stays free of wake-ups.
final class AnchorDriftMonitor {
    static let interval = 1.5
    static let tolerance = 0.02

    private let timer: OneShotTimer
    private var pushed: NowPlaying?
    private let measure: () -> NowPlaying
    private let republish: () -> Void

    init(loop: EventLoop, measure: @escaping () -> NowPlaying, republish: @escaping () -> Void) {
        timer = OneShotTimer(loop: loop)
        self.measure = measure
        self.republish = republish
    }

    /// Called with every pushed snapshot.
    func pushed(_ snapshot: NowPlaying) {
        pushed = snapshot
        if snapshot.state == .playing && snapshot.rate > 0 {
            timer.arm(after: Self.interval) { [unowned self] in check() }
        } else {
            timer.cancel()
        }
    }

    private func check() {
        guard let pushed else { return }
        let fresh = measure()
        // Not advancing (a restart after a seek or skip waits for its device to start): the
        // start is announced when the device plays, and that push re-arms the check.
        guard fresh.state == .playing, fresh.rate > 0, fresh.item?.id == pushed.item?.id else { return }
        let predicted = pushed.position(at: fresh.timestamp)
        if abs(predicted - fresh.elapsed) > Self.tolerance {
            republish()
        } else {
            timer.arm(after: Self.interval) { [unowned self] in check() }
        }
    }
}

extension AnchorDriftMonitor: Subsystem {
    /// A step with changes pushed a snapshot (one with events alone pushed none).
    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        if !changes.isEmpty { pushed(view.nowPlaying) }
    }
}
