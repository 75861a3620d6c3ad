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

    func changeVolume(_ change: VolumeChange) -> CommandResult {
        switch change {
        case .to(let level): setVolume(level)
        case .by(let points): setVolume(volume + points)
        }
        return .success(.done)
    }

    /// Sets the software volume (clamped to 0 - 100 %); the output takes it within a block and
    /// ramps to it (docs/sound.md).
    func setVolume(_ level: Double) {
        let clamped = min(100, max(0, level))
        guard clamped != volume else { return }
        volume = clamped
        engine.setSound(SoundSettings(equalizer: engine.soundSettings.equalizer, volume: clamped / 100))
        noteChange(.volume)
    }

    /// Sets the equalizer (from the configuration).
    func setEqualizer(_ equalizer: Equalizer) {
        engine.setSound(SoundSettings(equalizer: equalizer, volume: volume / 100))
    }

    func setShuffle(_ mode: ShuffleMode) -> CommandResult {
        guard mode != queue.shuffleMode else { return .success(.done) }
        queue.setShuffle(mode)
        noteChange(.modes)
        refreshUpcoming()
        return .success(.done)
    }
}
