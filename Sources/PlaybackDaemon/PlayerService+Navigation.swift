import ControlProtocol
import PlaybackModel

extension PlayerService {
    func nextTrack() -> Response {
        guard queue.current != nil else { return noCurrentItem() }
        guard queue.advance() else {
            endOfQueue()
            return .success()
        }
        return startCurrentItem()
    }

    func previousTrack() -> Response {
        guard let item = queue.current else { return noCurrentItem() }
        let elapsed = Double(playedFrame()) / Double(item.metadata.sampleRate)
        if elapsed > Self.restartThreshold || !queue.retreat() { return seek(to: 0) }
        return startCurrentItem()
    }

    func skip(by interval: Double) -> Response {
        guard let item = queue.current else { return noCurrentItem() }
        let elapsed = Double(playedFrame()) / Double(item.metadata.sampleRate)
        return seek(to: min(max(0, elapsed + interval), item.metadata.duration))
    }

    /// Moves to `seconds` in the current item, sample-accurately; replies with the landed position.
    func seek(to seconds: Double) -> Response {
        guard let item = queue.current else { return noCurrentItem() }
        let rate = Double(item.metadata.sampleRate)
        let frame = item.metadata.frame(at: seconds)
        if state == .playing {
            if let failure = startEngine(atFrame: frame) { return failure }
        } else {
            heldFrame = frame
        }
        noteChange(.position)
        return .success([("position", .number(Double(heldFrame) / rate))])
    }

    /// Plays (or, when not playing, holds) the current item from its start.
    func startCurrentItem() -> Response {
        heldFrame = 0
        noteChange([.item, .position])
        if state == .playing, let failure = startEngine(atFrame: 0) { return failure }
        return .success()
    }

    /// Past the last item: stop, release the device, clear now-playing.
    func endOfQueue() {
        engine.releaseDevice()
        noteChange(.item)
        queue.playOut()
        heldFrame = 0
        setState(.stopped)
    }

    func noCurrentItem() -> Response {
        .failure(.noActionableNowPlayingItem, queue.isEmpty ? "the queue is empty" : "no current item")
    }
}
