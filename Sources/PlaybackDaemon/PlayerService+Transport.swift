import ControlProtocol
import PlaybackEngine
import PlaybackModel

extension PlayerService {
    func play() -> CommandResult {
        if state == .playing { return .success(.done) }
        if queue.current == nil {
            guard queue.begin() else {
                return .failure(CommandFailure(.noActionableNowPlayingItem, "the queue is empty"))
            }
            heldFrame = 0
            noteChange(.item)
        }
        return startEngine(atFrame: heldFrame).map { .failure($0) } ?? .success(.done)
    }

    func pause() -> CommandResult {
        guard queue.current != nil else {
            return .failure(CommandFailure(.noActionableNowPlayingItem, "nothing is playing"))
        }
        if state == .playing { holdPosition(engine.halt()) }
        if state != .stopped { setState(.paused) }
        return .success(.done)
    }

    func stop() -> CommandResult {
        engine.releaseDevice()
        if heldFrame != 0 { noteChange(.position) }
        heldFrame = 0
        setState(.stopped)
        return .success(.done)
    }

    /// Starts the engine at `frame` of the current item; nil on success, else the failure.
    /// A device failure leaves the state `interrupted` with the position kept. `fadingIn`: see
    /// `PlaybackEngine.start`.
    func startEngine(atFrame frame: Int, fadingIn: Bool = false) -> CommandFailure? {
        guard let item = queue.current, let (current, upcoming) = engineItems() else {
            return CommandFailure(.noActionableNowPlayingItem, "nothing to play")
        }
        boundaryTimer.cancel()
        engine.playbackRate = rate(of: item)
        do throws(EngineError) {
            heldFrame = try engine.start(current, atFrame: frame, upcoming: upcoming, fadingIn: fadingIn)
            setState(.playing)
            noteRealtimePriority()
            onEngineStarted()
            return nil
        } catch {
            return startFailure(error, item: item, frame: frame)
        }
    }

    private func startFailure(_ error: EngineError, item: QueueItem, frame: Int) -> CommandFailure {
        switch error {
        case .content(let error):
            if state == .playing { setState(.paused) }
            return CommandFailure(.noSuchContent, "\(item.path): \(error)")
        case .device(let error):
            heldFrame = frame
            setState(.interrupted)
            let message = "cannot open audio device '\(engine.deviceName)': \(error)"
            log.error(message)
            return CommandFailure(error.isUnsupportedFormat ? .commandFailed : .deviceNotFound, message)
        }
    }

    /// Says once if the output thread could not get real-time scheduling; playback goes on.
    private func noteRealtimePriority() {
        guard !engine.isRealtime, !hasReportedNoRealtime else { return }
        hasReportedNoRealtime = true
        log.notice(
            "the output thread runs without SCHED_FIFO (refused, or realtime = false; raise LimitRTPRIO or RLIMIT_RTPRIO); playing on"
        )
    }

    /// Records where a halted pipeline stopped.
    func holdPosition(_ position: EnginePosition?) {
        guard let position else { return }
        sync(toItem: position.itemID)
        heldFrame = position.frame
    }
}
