import ControlProtocol
import PlaybackEngine
import PlaybackModel

extension PlayerService {
    /// Items the engine is told about ahead of the current one. The decoder runs at most the
    /// ring plus the device buffer (about 4 s) ahead, and the list is topped up at every item
    /// start, so only items shorter than about 60 ms each could exhaust it (then the next one
    /// starts a new pipeline).
    static let engineLookahead = 64

    func setRepeat(_ mode: RepeatMode) -> CommandResult {
        guard mode != queue.repeatMode else { return .success(.done) }
        queue.repeatMode = mode
        noteChange(.modes)
        refreshUpcoming()
        return .success(.done)
    }

    func setShuffle(_ mode: ShuffleMode) -> CommandResult {
        guard mode != queue.shuffleMode else { return .success(.done) }
        queue.setShuffle(mode)
        noteChange(.modes)
        refreshUpcoming()
        return .success(.done)
    }
}
