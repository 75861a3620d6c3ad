import PlaybackEngine
import PlaybackModel

extension PlayerService {
    /// Reacts to what the engine reported: item boundaries, the end of what was decoded, a
    /// device failure. Runs on the control loop when the engine's event descriptor fires.
    func handleEngineEvents() {
        for event in engine.takeEvents() {
            log.log(.debug, "engine event: \(event)")
            switch event {
            case .audible:
                audibleStartTimer.cancel()
                // If the start was already announced (the device was slow), re-anchor clients.
                if !releaseDeferredChanges() { noteChange(.position) }
            case .itemStarted(let id, let audibleIn):
                scheduleItemChange(id, after: audibleIn)
            case .finished(let last, let next):
                holdPosition(last)
                continueAfterPipeline(next: next)
            case .deviceFailed(let error, let position):
                holdPosition(position)
                setState(.interrupted)
                log.error("audio device '\(engine.deviceName)' failed: \(error)")
            }
        }
    }

    /// A pipeline played out: start the next item (a format change, or items enqueued after
    /// the decoder ran out), or stop at the end of the queue.
    private func continueAfterPipeline(next: UInt64?) {
        let target =
            next.flatMap(queue.index(ofItem:))
            ?? queue.currentIndex.map { $0 + 1 }.flatMap { $0 < queue.count ? $0 : nil }
        guard let index = target, state == .playing else { return endOfQueue() }
        queue.select(index)
        heldFrame = 0
        noteChange(.item)
        if let failure = startEngine(atFrame: 0) {
            log.error("cannot continue with item \(index): \(failure.message ?? "")")
            if failure.status == .noSuchContent { endOfQueue() }
        }
    }
}
