import ControlProtocol
import PlaybackEngine
import PlaybackModel

extension PlayerService {
    /// Expands and probes on the prober thread, then adds on the control loop and replies.
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
                reply(enqueue(items, rejected: rejected, placement: placement, replace: replace, play: play))
                publishChanges()
            }
        }
    }

    func enqueue(
        _ probed: [QueueItem], rejected: [Rejection], placement: EnqueuePlacement, replace: Bool, play: Bool
    ) -> CommandResult {
        var rejected = rejected
        var items = probed
        let room = replace ? PlaybackQueue.maximumCount : queue.remainingCapacity
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
        if case .index(let index) = placement, !replace, index > queue.count {
            return .failure(
                CommandFailure(
                    .noSuchContent,
                    "index \(index) is past the end of the queue: it has \(queue.count) items (insert at 0 to \(queue.count))",
                    outcome: .enqueued(EnqueueOutcome(added: [], rejected: []))))
        }
        if let failure = add(items, placement: replace ? .end : placement, replace: replace, play: play) {
            return .failure(CommandFailure(failure.status, failure.message, outcome: .enqueued(outcome)))
        }
        outcome.queueCount = queue.count
        return .success(.enqueued(outcome))
    }

    /// Adds probed items; returns a failure when starting playback failed.
    private func add(
        _ items: [QueueItem], placement: EnqueuePlacement, replace: Bool, play: Bool
    ) -> CommandFailure? {
        let wasPlaying = state == .playing
        if replace {
            engine.halt()
            engine.forgetParkedDecoder()
            queue.removeAll()
        }
        let hadCurrent = queue.current != nil
        let firstNew: Int
        switch placement {
        case .end: firstNew = queue.count
        case .next: firstNew = queue.currentIndex.map { $0 + 1 } ?? queue.count
        case .index(let index): firstNew = index
        }
        queue.insert(items, at: firstNew, playNext: placement == .next)
        noteChange(.queue)
        if !hadCurrent {
            heldFrame = 0
            noteChange(.item)
        }
        if play || (replace && wasPlaying) {
            queue.select(firstNew)
            heldFrame = 0
            noteChange([.item, .position])
            return startEngine(atFrame: 0)
        }
        refreshUpcoming()
        return nil
    }

    func remove(at index: Int, count: Int) -> CommandResult {
        guard index < queue.count else { return outOfRange(index) }
        let end = min(queue.count, index + count)
        if let failure = removeItems(at: Set(index..<end)) { return .failure(failure) }
        return .success(.removed(count: end - index, queueCount: queue.count))
    }

    /// Removes the items at `offsets` (each in range). When the current item goes, the one that
    /// would have played next takes its place from its start (playing on if playing), or the
    /// queue ends. Returns why that item cannot play, if it cannot.
    func removeItems(at offsets: Set<Int>) -> CommandFailure? {
        let removedCurrent = queue.remove(at: offsets)
        noteChange(.queue)
        guard removedCurrent else {
            refreshUpcoming()
            return nil
        }
        engine.forgetParkedDecoder()
        guard queue.current != nil else {
            endOfQueue()
            return nil
        }
        if case .failure(let failure) = startCurrentItem() { return failure }
        return nil
    }

    func move(from: Int, to: Int) -> CommandResult {
        guard from < queue.count else { return outOfRange(from) }
        guard to < queue.count else { return outOfRange(to) }
        queue.move(from: from, to: to)
        noteChange(.queue)
        refreshUpcoming()
        return .success(.done)
    }

    func jump(to index: Int) -> CommandResult {
        guard index < queue.count else { return outOfRange(index) }
        queue.select(index)
        return startCurrentItem()
    }

    func queuePage(offset: Int, limit: Int) -> CommandResult {
        .success(
            .queuePage(
                QueuePage(
                    currentIndex: queue.currentIndex, count: queue.count, offset: offset,
                    repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode,
                    items: Array(queue.items.dropFirst(offset).prefix(limit)))))
    }

    private func outOfRange(_ index: Int) -> CommandResult {
        let extent =
            queue.isEmpty
            ? "the queue is empty" : "the queue has \(queue.count) items (indexes 0 to \(queue.count - 1))"
        return .failure(CommandFailure(.noSuchContent, "no item at index \(index): \(extent)"))
    }

    func clear() -> CommandResult {
        engine.releaseDevice()
        engine.forgetParkedDecoder()
        if !queue.isEmpty { noteChange([.queue, .item]) }
        queue.removeAll()
        heldFrame = 0
        setState(.stopped)
        return .success(.done)
    }

    func setEnabled(_ name: CommandName, _ enabled: Bool) -> CommandResult {
        if availability.set(name, enabled: enabled) { noteChange(.commands) }
        return .success(.commands(availability))
    }
}
