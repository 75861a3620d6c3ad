import PlaybackModel

/// When a `watch` line that shows the position is due again: at the instant the position,
/// extrapolated from `(elapsed, rate, timestamp)`, crosses its next whole second. Never while
/// paused or stopped, so an idle watch sleeps until the daemon pushes something.
public enum TickSchedule {
    /// How long after the boundary to print, so the printed second has certainly turned.
    public static let margin = 0.001

    /// The wall-clock time of the next whole second of the position after `now`; nil when the
    /// position does not advance or the next second is past the end of the item.
    public static func nextBoundary(_ nowPlaying: NowPlaying, after now: Double) -> Double? {
        guard nowPlaying.state == .playing, let item = nowPlaying.item else { return nil }
        let next = nowPlaying.position(at: now).rounded(.down) + 1
        guard next <= item.metadata.duration else { return nil }
        return nowPlaying.time(reaching: next)
    }
}
