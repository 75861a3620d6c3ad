/// When the sleep timer pauses playback: at a time, or at the end of the item or chapter
/// playing. The snapshot carries it as `sleepTimer`.
public enum SleepTimer: Sendable, Equatable {
    /// Seconds since the Unix epoch.
    case at(Double)
    case endOfItem
    case endOfChapter

    /// The boundaries' wire names (`setSleepTimer`'s `at`).
    public enum Boundary: String, Sendable, CaseIterable {
        case endOfItem, endOfChapter
    }

    /// The boundary it waits for; nil for a time.
    public var boundary: Boundary? {
        switch self {
        case .at: nil
        case .endOfItem: .endOfItem
        case .endOfChapter: .endOfChapter
        }
    }

    public init(_ boundary: Boundary) {
        self = boundary == .endOfItem ? .endOfItem : .endOfChapter
    }
}

extension NowPlaying {
    /// Seconds until the sleep timer pauses playback, at `time` (seconds since the epoch): to
    /// its time, or, extrapolated from the position, to the end of the item or chapter (as the
    /// position does, it stands still while paused). Nil without a timer.
    public func sleepRemaining(at time: Double) -> Double? {
        guard let sleepTimer else { return nil }
        // The rate the item plays at: `rate` while it advances (an item shorter than the
        // daemon's `rate-min-length` plays at 1), else the one chosen.
        let speed = max(rate > 0 ? rate : defaultRate, 0.001)
        switch sleepTimer {
        case .at(let fire): return max(0, fire - time)
        case .endOfItem:
            guard let item else { return nil }
            return max(0, (item.metadata.duration - position(at: time)) / speed)
        case .endOfChapter:
            guard let chapter else { return nil }
            return max(0, (chapter.end - position(at: time)) / speed)
        }
    }
}
