import PlaybackEngine
import PlaybackModel

/// The loudness measured for queue items whose gain comes from it (`ReplayGainSettings
/// .usesMeasurement`), by path, and the rule that keeps an item's gain whole: an item that
/// began to play before its loudness was known plays at `replaygain-missing` to its end, and
/// takes its measure only when it starts again as another item would.
struct LoudnessBook {
    /// What each file measured; what could not be measured is kept as a failure so that it is
    /// not asked for again.
    private var measured: [String: Result<Loudness, LoudnessError>] = [:]
    /// The item that started unmeasured: it keeps the gain it started with while current.
    private var startedUnmeasured: UInt64?

    /// Files kept at most: beyond it, the oldest measures are forgotten (and measured again
    /// when they come up; at hundreds of times real time that is cheap).
    static let capacity = 4096
    /// The order measures came in, for forgetting the oldest.
    private var arrival: [String] = []

    /// The loudness that applies to `item` now (the library's measure, else the one taken
    /// here): nil when unknown, or when it began unmeasured.
    func loudness(of item: QueueItem) -> Loudness? {
        guard item.id != startedUnmeasured else { return nil }
        if let kept = item.metadata.measuredLoudness { return kept }
        guard case .success(let loudness) = measured[item.path] else { return nil }
        return loudness
    }

    /// Whether `item` has a measure (or failed to get one).
    func isSettled(_ item: QueueItem) -> Bool { item.metadata.measuredLoudness != nil || measured[item.path] != nil }

    /// Records a measure (or why there is none); returns whether it is new.
    mutating func record(_ outcome: Result<Loudness, LoudnessError>, for path: String) -> Bool {
        guard measured[path] != outcome else { return false }
        if measured.updateValue(outcome, forKey: path) == nil { arrival.append(path) }
        if arrival.count > Self.capacity {
            for forgotten in arrival.prefix(arrival.count - Self.capacity) { measured[forgotten] = nil }
            arrival.removeFirst(arrival.count - Self.capacity)
        }
        return true
    }

    /// `item` is handed to the engine as the current item, `measuring` whether its gain waits
    /// for a measure: unknown yet, it keeps the gain it starts with until another item is
    /// current.
    mutating func plays(_ item: QueueItem, measuring: Bool) {
        if item.id == startedUnmeasured { return }
        startedUnmeasured = measuring && !isSettled(item) ? item.id : nil
    }
}
