import SystemSupport

/// The mailbox through which the event loop tells the decoder thread what to decode
/// after the current item. The mutex protects the list, what the decoder already took from
/// it, and whether it found it empty; the decoder thread (never the output thread) takes it,
/// and nothing is called while it is held.
final class UpcomingItems: Sendable {
    private struct State {
        var items: [EngineItem]
        /// Every item the decoder took, in order (including ones it could not open).
        var taken: [UInt64] = []
        /// For segment k + 1 of the pipeline, the index in `taken` of its item.
        var segmentTakes: [Int] = []
        var exhausted = false
    }

    private let state: Locked<State>

    init(_ items: [EngineItem]) { state = Locked(State(items: items)) }

    /// Decoder: the next item, or nil (and the list counts as exhausted).
    func next() -> EngineItem? {
        state.withLock { state in
            if state.items.isEmpty {
                state.exhausted = true
                return nil
            }
            let item = state.items.removeFirst()
            state.taken.append(item.id)
            return item
        }
    }

    /// Decoder: the next item, left in the list (to see whether it fades in).
    func peek() -> EngineItem? {
        state.withLock { $0.items.first }
    }

    /// Decoder: the item it took last begins a new segment.
    func noteSegmentStarted() {
        state.withLock { $0.segmentTakes.append($0.taken.count - 1) }
    }

    /// Decoder: it stops taking items (end of queue, format change).
    func close() {
        state.withLock { $0.exhausted = true }
    }

    /// Control: `items` is what follows `segment` now. The decoder may already have taken some
    /// of them; those must be the list's first entries.
    func replace(with items: [EngineItem], afterSegment segment: Int) -> UpcomingUpdate {
        state.withLock { state in
            // The decoder notes a segment before logging it, so a segment heard is known here;
            // one that is not cannot be reasoned about, and a restart where it is heard can.
            guard segment <= state.segmentTakes.count else { return .conflicts }
            let start = segment == 0 ? 0 : state.segmentTakes[segment - 1] + 1
            let decided = state.taken[start...]
            guard decided.count <= items.count, zip(decided, items).allSatisfy({ $0 == $1.id }) else {
                return .conflicts
            }
            if state.exhausted { return decided.count == items.count ? .accepted : .tooLate }
            state.items = Array(items.dropFirst(decided.count))
            return .accepted
        }
    }
}

/// What became of a new list of upcoming items (`PlaybackEngine.setUpcoming`).
public enum UpcomingUpdate: Sendable, Equatable {
    /// The pipeline will play them.
    case accepted
    /// The decoder already reached the end of its list: the new items need a new pipeline
    /// once this one ends.
    case tooLate
    /// The decoder is already decoding an item the new list does not have next; only a
    /// restart at the heard position can honour it.
    case conflicts
}
