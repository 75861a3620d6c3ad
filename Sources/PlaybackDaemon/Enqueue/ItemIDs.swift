import Synchronization

/// Hands out item ids, unique for the daemon's run. The prober thread reserves a block for
/// the items it found, so the event loop adds them as they are.
final class ItemIDs: Sendable {
    private let next = Atomic<UInt64>(1)

    /// `count` consecutive ids; returns the first.
    func reserve(_ count: Int) -> UInt64 {
        next.add(UInt64(count), ordering: .relaxed).oldValue
    }

    /// Ids from now on start after `used` (after a restore).
    func skip(past used: UInt64) {
        _ = next.max(used + 1, ordering: .relaxed)
    }
}
