import ControlProtocol

/// A now-playing snapshot as the daemon pushed it, read at one instant: the position is
/// extrapolated from `(elapsed, rate, timestamp)` to `now`, clamped to the item.
public struct SnapshotView {
    public let snapshot: JSONValue
    public let now: Double

    public init(_ snapshot: JSONValue, now: Double) {
        self.snapshot = snapshot
        self.now = now
    }

    public var state: String { snapshot["state"]?.stringValue ?? "unknown" }
    public var hasItem: Bool { snapshot["title"] != nil }
    public var duration: Double? { snapshot["duration"]?.numberValue }

    /// The position at `now`; nil when nothing is current.
    public var position: Double? {
        guard hasItem, let elapsed = snapshot["elapsed"]?.numberValue else { return nil }
        let rate = snapshot["rate"]?.numberValue ?? 0
        let timestamp = snapshot["timestamp"]?.numberValue ?? now
        let extrapolated = elapsed + rate * max(0, now - timestamp)
        return min(duration ?? .infinity, max(0, extrapolated))
    }

    public func text(_ key: String) -> String? {
        guard let value = snapshot[key]?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    public func number(_ key: String) -> Double? { snapshot[key]?.numberValue }
}
