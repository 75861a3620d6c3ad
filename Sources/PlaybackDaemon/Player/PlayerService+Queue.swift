import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The queue commands: enqueue (probed on the prober thread), remove, move, clear, and
/// enabling commands.
extension PlayerService {
    /// Expands and probes on the prober thread, then adds on the event loop and replies.
    /// Enqueues are applied in the order they arrived.
    func enqueueInBackground(
        _ paths: [String], placement: EnqueuePlacement, replace: Bool, play: Bool,
        reply: @escaping (CommandResult) -> Void
    ) {
        let (prober, ids) = (self.prober, itemIDs)
        probing.submit { [prober, ids] in
            let (items, rejected) = prober.probe(paths, limit: PlaybackQueue.maximumCount + 1, ids: ids)
            return { [unowned self] in
                syncWithEngine()
                if replace || play { bookmarkCurrentItem() }
                reply(enqueue(items, rejected: rejected, placement: placement, replace: replace, play: play))
                if replace || play { aimSleepTimer() }
                publishChanges()
            }
        }
    }

    func enqueue(
        _ probed: [QueueItem], rejected: [Rejection], placement: EnqueuePlacement, replace: Bool, play: Bool
    ) -> CommandResult {
        var rejected = rejected
        var items = probed
        let room = replace ? PlaybackQueue.maximumCount : state.queue.remainingCapacity
        if items.count > room {
            rejected += items[room...].map {
                Rejection(path: $0.path, reason: "the queue is full (\(PlaybackQueue.maximumCount) items)")
            }
            items.removeLast(items.count - room)
        }
        var outcome = EnqueueOutcome(added: items.map(\.id), rejected: rejected)
        guard !items.isEmpty else {
            let reasons = rejected.prefix(3).map { "\($0.path): \($0.reason)" }.joined(separator: "; ")
            let more = rejected.count > 3 ? " (and \(rejected.count - 3) more)" : ""
            return .failure(
                CommandFailure(.noSuchContent, "nothing playable: \(reasons)\(more)", outcome: .enqueued(outcome)))
        }
        let count = state.queue.count
        if case .index(let index) = placement, !replace, index > count {
            return .failure(
                CommandFailure(
                    .noSuchContent,
                    "index \(index) is past the end of the queue: it has \(count) items (insert at 0 to \(count))",
                    outcome: .enqueued(EnqueueOutcome(added: [], rejected: []))))
        }
        if let failure = add(items, placement: placement, replace: replace, play: play) {
            return .failure(CommandFailure(failure.status, failure.message, outcome: .enqueued(outcome)))
        }
        outcome.queueCount = state.queue.count
        return .success(.enqueued(outcome))
    }

    /// Adds probed items; returns a failure when starting playback failed.
    private func add(_ items: [QueueItem], placement: EnqueuePlacement, replace: Bool, play: Bool) -> CommandFailure? {
        let wasPlaying = state.transport == .playing
        if replace {
            engine.halt()
            engine.forgetParkedDecoder()
        }
        let (changes, firstNew) = state.insert(items, placement: placement, replace: replace)
        note(changes)
        if play || (replace && wasPlaying) {
            note(state.select(firstNew))
            return startEngine(atFrame: state.heldFrame)
        }
        refreshUpcoming()
        return nil
    }

    func remove(at index: Int, count: Int) -> CommandResult {
        guard index < state.queue.count else { return outOfRange(index) }
        let end = min(state.queue.count, index + count)
        if let failure = removeItems(at: Set(index..<end)) { return .failure(failure) }
        return .success(.removed(count: end - index, queueCount: state.queue.count))
    }

    /// Removes the items at `offsets` (each in range). When the current item goes, the one that
    /// would have played next takes its place from its start (playing on if playing), or the
    /// queue ends. Returns why that item cannot play, if it cannot.
    func removeItems(at offsets: Set<Int>) -> CommandFailure? {
        let (changes, removedCurrent) = state.remove(at: offsets)
        guard removedCurrent else {
            note(changes)
            refreshUpcoming()
            return nil
        }
        engine.forgetParkedDecoder()
        guard state.queue.current != nil else {
            note(.queue)
            endOfQueue()
            return nil
        }
        if case .failure(let failure) = startCurrentItem(changes) { return failure }
        return nil
    }

    func move(from: Int, to: Int) -> CommandResult {
        guard from < state.queue.count else { return outOfRange(from) }
        guard to < state.queue.count else { return outOfRange(to) }
        note(state.move(from: from, to: to))
        refreshUpcoming()
        return .success(.done)
    }

    func clear() -> CommandResult {
        releaseAndStop { $0.clear() }
        return .success(.done)
    }

    /// A new repeat or shuffle mode changes what plays next.
    func changeModes(_ changes: ChangeSet) -> CommandResult {
        note(changes)
        if !changes.isEmpty { refreshUpcoming() }
        return .success(.done)
    }

    func setEnabled(_ name: CommandName, _ enabled: Bool) -> CommandResult {
        note(state.setEnabled(name, enabled))
        return .success(.commands(state.currentAvailability))
    }

    func outOfRange(_ index: Int) -> CommandResult {
        let count = state.queue.count
        let extent = count == 0 ? "the queue is empty" : "the queue has \(count) items (indexes 0 to \(count - 1))"
        return .failure(CommandFailure(.noSuchContent, "no item at index \(index): \(extent)"))
    }
}
