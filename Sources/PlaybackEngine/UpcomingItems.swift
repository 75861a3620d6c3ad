import Synchronization

/// The mailbox through which the control thread tells the decoder thread what to decode
/// after the current item. The mutex protects the list of upcoming items and whether the
/// decoder has already found it empty; the decoder thread (never the output thread) takes it,
/// and nothing is called while it is held.
final class UpcomingItems: Sendable {
    private struct State {
        var items: [EngineItem]
        var exhausted = false
    }

    private let state: Mutex<State>

    init(_ items: [EngineItem]) { state = Mutex(State(items: items)) }

    /// Decoder: the next item, or nil (and the list counts as exhausted).
    func next() -> EngineItem? {
        state.withLock { state in
            if state.items.isEmpty {
                state.exhausted = true
                return nil
            }
            return state.items.removeFirst()
        }
    }

    /// Control: replaces the upcoming list. Returns false when the decoder already ran out,
    /// so the new items need a new pipeline once this one ends.
    func replace(with items: [EngineItem]) -> Bool {
        state.withLock { state in
            guard !state.exhausted else { return false }
            state.items = items
            return true
        }
    }
}
