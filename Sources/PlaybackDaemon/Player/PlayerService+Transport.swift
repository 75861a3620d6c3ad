import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// Transport and navigation: play, pause, stop, seeks, skips and moving between items.
extension PlayerService {
    func play() -> CommandResult {
        if state.transport == .playing { return .success(.done) }
        guard let changes = state.beginIfNeeded() else {
            return .failure(CommandFailure(.noActionableNowPlayingItem, "the queue is empty"))
        }
        note(changes)
        return startEngine(atFrame: state.heldFrame).map { .failure($0) } ?? .success(.done)
    }

    func pause() -> CommandResult {
        guard state.queue.current != nil else {
            return .failure(CommandFailure(.noActionableNowPlayingItem, "nothing is playing"))
        }
        if state.transport == .playing {
            holdPosition(engine.halt())
            bookmarkCurrentItem()
        }
        if state.transport != .stopped { setTransport(.paused) }
        return .success(.done)
    }

    func stop() -> CommandResult {
        releaseAndStop { $0.stop() }
        return .success(.done)
    }

    func nextTrack() -> CommandResult {
        guard state.queue.current != nil else { return noCurrentItem() }
        guard let changes = state.advance() else {
            endOfQueue()
            return .success(.done)
        }
        return startCurrentItem(changes)
    }

    func previousTrack() -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        guard let changes = state.retreat(elapsed: item.metadata.seconds(atFrame: playedFrame())) else {
            // The item restarts: a seek to its start, answered as every previousTrack is.
            return seek(to: 0).map { _ in .done }
        }
        return startCurrentItem(changes)
    }

    func skip(by interval: Double) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        let elapsed = item.metadata.seconds(atFrame: playedFrame())
        return seek(to: min(max(0, elapsed + interval), item.metadata.duration))
    }

    /// Moves to `seconds` in the current item, sample-accurately; replies with the landed position.
    func seek(to seconds: Double) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        let frame = item.metadata.frame(at: seconds)
        if state.transport == .playing {
            if let failure = startEngine(atFrame: frame) { return .failure(failure) }
            note(.position)
        } else {
            note(state.moveHeld(to: frame))
        }
        return .success(.position(item.metadata.seconds(atFrame: state.heldFrame)))
    }

    func jump(to index: Int) -> CommandResult {
        guard index < state.queue.count else { return outOfRange(index) }
        return startCurrentItem(state.select(index))
    }

    /// Plays (or, when not playing, holds) the current item from its start (a long item's
    /// bookmark), after a move that caused `changes`.
    func startCurrentItem(_ changes: ChangeSet) -> CommandResult {
        note(changes)
        if state.transport == .playing, let failure = startEngine(atFrame: state.heldFrame) {
            return .failure(failure)
        }
        return .success(.done)
    }

    /// Past the last item: stop, release the device and the file, clear now-playing.
    func endOfQueue() { releaseAndStop { $0.playOut() } }

    /// Releases the device and the item's file (a stopped daemon holds nothing open), then
    /// applies `operation`, which leaves the state stopped.
    func releaseAndStop(_ operation: (inout PlayerState) -> ChangeSet) {
        engine.releaseAll()
        note(operation(&state))
        driver.transportChanged(to: .stopped)
    }

    /// Starts the engine at `frame` of the current item; nil on success, else the failure.
    /// A device failure leaves the state `interrupted` with the position kept. `fadingIn`: see
    /// `PlaybackEngine.start`.
    /// `logsDeviceFailure`: false for the quiet retries of a device that comes back by itself.
    /// A live stream starts at its live edge, whatever `frame` says, on a new connection (the
    /// one a pause held is stale).
    func startEngine(atFrame asked: Int, fadingIn: Bool = false, logsDeviceFailure: Bool = true) -> CommandFailure? {
        let live = state.queue.current?.metadata.isSeekable == false
        if live { engine.forgetParkedDecoder() }
        let step = state.phraseStep
        let frame = state.phraseStart(atFrame: live ? 0 : asked)
        if state.phraseStep != step { note(.phrase) }
        guard let item = state.queue.current, let items = state.engineItems(startingAt: frame) else {
            return CommandFailure(.noActionableNowPlayingItem, "nothing to play")
        }
        do throws(EngineError) {
            state.hold(try driver.start(items, atFrame: frame, rate: state.rate(of: item), fadingIn: fadingIn))
            state.loopPipelineStarted(atFrame: frame)
            setTransport(.playing)
            followBookmarks()
            return nil
        } catch {
            return startFailure(error, item: item, frame: frame, logs: logsDeviceFailure)
        }
    }

    private func startFailure(_ error: EngineError, item: QueueItem, frame: Int, logs: Bool) -> CommandFailure {
        switch error {
        case .content(let error):
            if state.transport == .playing { setTransport(.paused) }
            return CommandFailure(.noSuchContent, "\(item.path): \(error)")
        case .device(let error):
            state.hold(frame)
            setTransport(.interrupted)
            let message = "cannot open audio device '\(engine.deviceName)': \(error)"
            if logs { log.error(message) }
            return CommandFailure(error.isUnsupportedFormat ? .commandFailed : .deviceNotFound, message)
        }
    }

    /// Records where a halted pipeline stopped.
    func holdPosition(_ position: EnginePosition?) {
        guard let position else { return }
        note(state.follow(toItem: position.itemID))
        state.hold(position.frame)
        if position.itemID == state.queue.current?.id {
            note(state.phraseHeard(mark: position.mark, inGap: position.isGap))
        }
    }

    func noCurrentItem() -> CommandResult {
        let why = state.queue.isEmpty ? "the queue is empty" : "no current item"
        return .failure(CommandFailure(.noActionableNowPlayingItem, why))
    }
}
