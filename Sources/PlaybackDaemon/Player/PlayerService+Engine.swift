import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the engine reports, taken into the state: item boundaries, the end of what was
/// decoded, a device failure; and the queue changes the engine must follow.
extension PlayerService {
    /// Runs on the event loop when the engine's event descriptor fires.
    func handleEngineEvents() {
        for event in engine.takeEvents() {
            log.log(.debug, "engine event: \(event)")
            switch event {
            case .audible:
                // If the start was already announced (the device was slow), re-anchor clients.
                if !releaseDeferredChanges() { note(.position) }
            case .itemStarted(let id, let segment, let audibleIn):
                driver.scheduleBoundary(id, segment: segment, after: audibleIn)
            case .finished(let last, let next):
                holdPosition(last)
                continueAfterPipeline(next: next)
            case .deviceFailed(let error, let position):
                holdPosition(position)
                log.error("audio device '\(engine.deviceName)' failed: \(error)")
                setTransport(.interrupted)
                // The device itself vanished (a USB card unplugged): a route change as well.
                if error.code == -ENODEV {
                    routeChanged(
                        RouteChange(
                            reason: .oldDeviceUnavailable, device: engine.deviceName, timestamp: WallClock.now()))
                }
            case .itemsCutShort(let count, let reason):
                log.warning(
                    "\(count) item\(count == 1 ? "" : "s") ended early: \(reason.map { "\($0)" } ?? "decoding failed part-way")"
                )
            case .itemsSkipped(let count):
                log.warning("passed over \(count) upcoming item\(count == 1 ? "" : "s") that could not be opened")
            case .streamTitle(let url, let title):
                note(state.setStreamTitle(title, for: url))
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
        if state.transport == .playing, let finished = state.queue.current { itemFinished(finished.id) }
        guard state.transport == .playing,
            let changes = next.map({ state.advance(toItem: $0) }) ?? state.advance(automatic: true)
        else { return endOfQueue() }
        note(changes)
        if let failure = startEngine(atFrame: state.heldFrame) {
            log.error("cannot continue with item \(state.queue.currentIndex ?? -1): \(failure.message)")
            if failure.status == .noSuchContent { endOfQueue() }
        }
    }

    /// The start of the pipeline's `segment` (playing `id`) became audible: an item change, or
    /// a new pass of the same item (repeat-one), which restarts the position.
    func boundaryHeard(_ id: UInt64, segment: Int, _ heard: EnginePosition) {
        guard state.transport == .playing else { return }
        // The item before played to its end (when the state had not followed the engine yet;
        // otherwise the periodic save within its last 30 s already forgot its bookmark).
        if let previous = state.queue.current, previous.id != heard.itemID { itemFinished(previous.id) }
        if state.queue.current?.id == id && heard.segment == segment {
            // A gap beginning moves nothing: the position holds through it.
            note(heard.isGap ? [] : ChangeSet.position.union(state.loopSegmentBegan(segment)))
        } else {
            note(state.follow(toItem: heard.itemID))
        }
        if heard.itemID == state.queue.current?.id { note(state.phraseHeard(mark: heard.mark, inGap: heard.isGap)) }
        refreshUpcoming()
        publishChanges()
    }

    /// Hands the engine the items that now follow the one heard. When the decoder is already
    /// decoding an item that no longer comes next, the pipeline restarts at the heard frame:
    /// the only way to honour the change (the device's buffer is played again from there).
    func refreshUpcoming() {
        guard state.transport == .playing, engine.isRunning, let position = engine.currentPosition() else { return }
        note(state.follow(toItem: position.itemID))
        // The list follows the segment heard: an A-B loop's pass count must be that segment's
        // (on a device that takes audio faster than real time it may be past the last announced).
        if position.itemID == state.queue.current?.id {
            note(state.loopSegmentBegan(position.segment))
            note(state.phraseHeard(mark: position.mark, inGap: position.isGap))
            // Phrase mode with the item playing whole before its last phrase (its phrases were
            // found after it started, or repeat-one began it again): from the phrase heard.
            if state.playsWholeBeforeLastPhrase(atFrame: position.frame, mark: position.mark) {
                return restartAtHeardFrame(for: "phrase mode", fadingIn: false)
            }
        }
        let items = state.engineItems(startingAt: nil)?.upcoming ?? []
        if engine.setUpcoming(items, afterSegment: position.segment) == .conflicts {
            restartAtHeardFrame(for: "after a queue change", fadingIn: false)
        }
    }

    /// Restarts a running pipeline at the frame heard, so that a change made where the decoder
    /// works is heard at once. With `fadingIn`, on a device that can replace what it holds, the
    /// old audio fades out a few milliseconds ahead and the new fades in after it (no cut).
    func restartAtHeardFrame(for reason: String, fadingIn: Bool) {
        guard state.transport == .playing, engine.isRunning else { return }
        holdPosition(fadingIn ? engine.splice() : engine.halt())
        if let failure = startEngine(atFrame: state.heldFrame, fadingIn: fadingIn) {
            log.error("cannot restart \(reason): \(failure.message)")
        }
    }
}
