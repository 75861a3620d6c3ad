import ControlProtocol
import PlaybackModel

extension PlayerService {
    func nextTrack() -> CommandResult {
        guard queue.current != nil else { return noCurrentItem() }
        guard queue.advance() else {
            endOfQueue()
            return .success(.done)
        }
        return startCurrentItem()
    }

    func previousTrack() -> CommandResult {
        guard let item = queue.current else { return noCurrentItem() }
        let elapsed = Double(playedFrame()) / Double(item.metadata.sampleRate)
        if elapsed > Self.restartThreshold || !queue.retreat() { return seek(to: 0) }
        return startCurrentItem()
    }

    func skip(by interval: Double) -> CommandResult {
        guard let item = queue.current else { return noCurrentItem() }
        let elapsed = Double(playedFrame()) / Double(item.metadata.sampleRate)
        return seek(to: min(max(0, elapsed + interval), item.metadata.duration))
    }

    /// Moves to `seconds` in the current item, sample-accurately; replies with the landed position.
    func seek(to seconds: Double) -> CommandResult {
        guard let item = queue.current else { return noCurrentItem() }
        let rate = Double(item.metadata.sampleRate)
        let frame = item.metadata.frame(at: seconds)
        if state == .playing {
            if let failure = startEngine(atFrame: frame) { return .failure(failure) }
        } else {
            heldFrame = frame
        }
        noteChange(.position)
        return .success(.position(Double(heldFrame) / rate))
    }

    /// Plays (or, when not playing, holds) the current item from its start.
    func startCurrentItem() -> CommandResult {
        heldFrame = 0
        noteChange([.item, .position])
        if state == .playing, let failure = startEngine(atFrame: 0) { return .failure(failure) }
        return .success(.done)
    }

    /// Past the last item: stop, release the device, clear now-playing.
    func endOfQueue() {
        engine.releaseDevice()
        noteChange(.item)
        queue.playOut()
        heldFrame = 0
        setState(.stopped)
    }

    func noCurrentItem() -> CommandResult {
        .failure(CommandFailure(.noActionableNowPlayingItem, queue.isEmpty ? "the queue is empty" : "no current item"))
    }
}
