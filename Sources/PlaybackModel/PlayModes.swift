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
