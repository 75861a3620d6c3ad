import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

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
            case .itemStarted(let id, let segment, let audibleIn):
                scheduleItemChange(id, segment: segment, after: audibleIn)
            case .finished(let last, let next):
                holdPosition(last)
                continueAfterPipeline(next: next)
            case .deviceFailed(let error, let position):
                holdPosition(position)
                setState(.interrupted)
                log.error("audio device '\(engine.deviceName)' failed: \(error)")
                // The device itself vanished (a USB card unplugged): a route change as well.
                if error.code == -ENODEV {
                    routeChanged(
                        RouteChange(
                            reason: .oldDeviceUnavailable, device: engine.deviceName, timestamp: WallClock.now()))
                }
            case .itemsCutShort(let count):
                log.warning("\(count) item\(count == 1 ? "" : "s") ended early: decoding failed part-way")
            case .itemsSkipped(let count):
                log.warning("passed over \(count) upcoming item\(count == 1 ? "" : "s") that could not be opened")
            case .xrunsRecovered(let count):
                log.warning(
                    "audio device '\(engine.deviceName)' underran \(count) time\(count == 1 ? "" : "s") (xrun); recovered"
                )
            }
        }
    }

    /// A pipeline played out: start what follows (the item whose format differs, items
    /// enqueued after the decoder ran out, the next pass of a repeat), or stop at the end.
    private func continueAfterPipeline(next: UInt64?) {
        guard state == .playing else { return endOfQueue() }
        let moved = next.map { queue.follow(toItem: $0) } ?? queue.advance(automatic: true)
        guard moved, queue.current != nil else { return endOfQueue() }
        heldFrame = 0
        noteChange([.item, .position])
        if let failure = startEngine(atFrame: 0) {
            log.error("cannot continue with item \(queue.currentIndex ?? -1): \(failure.message)")
            if failure.status == .noSuchContent { endOfQueue() }
        }
    }

    /// Hands the engine the items that now follow the one heard. When the decoder is already
    /// decoding an item that no longer comes next, the pipeline restarts at the heard frame:
    /// the only way to honour the change (the device's buffer is played again from there).
    func refreshUpcoming() {
        guard state == .playing, engine.isRunning, let position = engine.currentPosition() else { return }
        sync(toItem: position.itemID)
        let items = engineItems()?.upcoming ?? []
        if engine.setUpcoming(items, afterSegment: position.segment) == .conflicts {
            holdPosition(engine.halt())
            if let failure = startEngine(atFrame: heldFrame) {
                log.error("cannot restart after a queue change: \(failure.message)")
            }
        }
    }
}
