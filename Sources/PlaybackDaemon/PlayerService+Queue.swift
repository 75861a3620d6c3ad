import ControlProtocol
import PlaybackEngine
import PlaybackModel

extension PlayerService {
    func enqueue(_ paths: [String], replace: Bool, play: Bool) -> Response {
        var (items, rejected) = prober.probe(paths, firstID: nextItemID)
        nextItemID += UInt64(items.count)
        let room = replace ? PlaybackQueue.maximumCount : queue.remainingCapacity
        if items.count > room {
            rejected += items[room...].map {
                ItemProber.Rejection(path: $0.path, reason: "the queue is full (\(PlaybackQueue.maximumCount) items)")
            }
            items.removeLast(items.count - room)
        }
        let fields: [(String, JSONValue)] = [
            ("added", .array(items.map { .number(Double($0.id)) })),
            (
                "rejected",
                .array(rejected.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })
            ),
        ]
        guard !items.isEmpty else {
            let reasons = rejected.map { "\($0.path): \($0.reason)" }.joined(separator: "; ")
            return Response(status: .noSuchContent, message: "nothing playable: \(reasons)", fields: fields)
        }
        let failure = add(items, replace: replace, play: play)
        return failure.map { Response(status: $0.status, message: $0.message, fields: fields) }
            ?? .success(fields + [("queueCount", .number(Double(queue.count)))])
    }

    /// Adds probed items; returns a failure when starting playback failed.
    private func add(_ items: [QueueItem], replace: Bool, play: Bool) -> Response? {
        let wasPlaying = state == .playing
        if replace {
            engine.halt()
            engine.forgetParkedDecoder()
            queue.removeAll()
        }
        let hadCurrent = queue.current != nil
        let firstNew = queue.count
        queue.append(items)
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
        if state == .playing { engine.setUpcoming(queue.upcoming.map { EngineItem(id: $0.id, path: $0.path) }) }
        return nil
    }

    func clear() -> Response {
        engine.releaseDevice()
        engine.forgetParkedDecoder()
        if !queue.isEmpty { noteChange([.queue, .item]) }
        queue.removeAll()
        heldFrame = 0
        setState(.stopped)
        return .success()
    }

    func setEnabled(_ name: CommandName, _ enabled: Bool) -> Response {
        if availability.set(name, enabled: enabled) { noteChange(.commands) }
        return .success([("commands", availability.json)])
    }
}
