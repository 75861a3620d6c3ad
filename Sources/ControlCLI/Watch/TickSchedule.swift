import ControlProtocol

/// When a `watch` line that shows the position is due again: at the instant the position,
/// extrapolated from `(elapsed, rate, timestamp)`, crosses its next whole second. Never while
/// paused or stopped, so an idle watch sleeps until the daemon pushes something.
public enum TickSchedule {
    /// How long after the boundary to print, so the printed second has certainly turned.
    public static let margin = 0.001

    /// The wall-clock time of the next whole second of the position after `now`; nil when the
    /// position does not advance or the next second is past the end of the item.
    public static func nextBoundary(_ snapshot: JSONValue, after now: Double) -> Double? {
        guard snapshot["state"]?.stringValue == "playing", let rate = snapshot["rate"]?.numberValue, rate > 0,
            let elapsed = snapshot["elapsed"]?.numberValue, let timestamp = snapshot["timestamp"]?.numberValue
        else { return nil }
        let position = elapsed + rate * max(0, now - timestamp)
        let next = position.rounded(.down) + 1
        if let duration = snapshot["duration"]?.numberValue, next > duration { return nil }
        return timestamp + (next - elapsed) / rate
    }
}
