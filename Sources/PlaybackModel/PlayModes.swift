/// What happens when an item or the queue ends (`MPRepeatType`).
public enum RepeatMode: String, CaseIterable, Sendable {
    /// Play the queue once.
    case off
    /// Play the current item again and again; `nextTrack` still moves on.
    case one
    /// Start over after the last item.
    case all
}

/// Whether the queue plays in a random order (`MPShuffleType`).
public enum ShuffleMode: String, CaseIterable, Sendable {
    case off
    /// Every item once per cycle, in a random order.
    case items
}

/// Whether playback stops when an item ends (MPD's `single`). With repeat on, the item plays
/// again instead (as MPD's `single` with `repeat`); `once` stops whatever the repeat mode.
public enum SingleMode: String, CaseIterable, Sendable {
    case off
    /// Stop at the end of every item: paused, with the next item current at its start.
    case on
    /// Stop at the end of the current item, once, then off ("stop after this one").
    case once
}

/// Whether an item leaves the queue once it has played (MPD's `consume`).
public enum ConsumeMode: String, CaseIterable, Sendable {
    case off
    /// Every item played (to its end, or skipped with `nextTrack`) is removed.
    case on
    /// The next item played is removed, then off.
    case once
}

/// What happens where the current item ends (`PlaybackQueue.itemEnd`).
public enum ItemEnd: Sendable, Equatable {
    /// The next item in the play order plays.
    case next
    /// The item plays again (repeat-one; `single` with repeat).
    case again
    /// Playback stops at the item's last frame: paused, the next item current (`single`).
    case stop
}

/// A small, fast, seedable generator (SplitMix64). A value, so the queue that holds it stays
/// a value and tests can replay a shuffle exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeded from the system's generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
