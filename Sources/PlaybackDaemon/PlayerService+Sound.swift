import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The sound commands: the volume, the playback rate and the equalizer. Each change goes to the engine at once
/// (the output takes it within a block and crossfades to it, docs/sound.md) and is published.
extension PlayerService {
    func changeVolume(_ change: LevelChange) -> CommandResult {
        setVolume(change.applied(to: volume))
        return .success(.done)
    }

    /// Sets the software volume (clamped to 0 - 100 %).
    func setVolume(_ level: Double) {
        let clamped = min(100, max(0, level))
        guard clamped != volume else { return }
        volume = clamped
        engine.setSound(soundSettings)
        noteChange(.volume)
    }

    /// Replaces the equalizer.
    func setEqualizer(_ new: Equalizer) {
        guard new != equalizer else { return }
        equalizer = new
        engine.setSound(soundSettings)
        noteChange(.equalizer)
    }

    /// The current item and those that play after it (at most `engineLookahead`), as the
    /// engine takes them: each with its ReplayGain factor.
    func engineItems() -> (current: EngineItem, upcoming: [EngineItem])? {
        guard let current = queue.current else { return nil }
        // An item with another rate starts a new pipeline: the stretcher is one for all it plays.
        let rate = rate(of: current)
        let sequence = [current] + queue.upcoming(limit: Self.engineLookahead).prefix { self.rate(of: $0) == rate }
        let items = sequence.indices.map { index in
            let item = sequence[index]
            let gain = replayGain(
                of: item, before: index == 0 ? previousInOrder : sequence[index - 1],
                after: index + 1 < sequence.count ? sequence[index + 1] : nil)
            return EngineItem(id: item.id, path: item.path, gain: gain?.factor ?? 1)
        }
        return (items[0], Array(items.dropFirst()))
    }

    /// The ReplayGain applied to the current item; nil when ReplayGain is off.
    func currentReplayGain() -> AppliedReplayGain? {
        guard replayGainSettings.mode != .off, let current = queue.current else { return nil }
        let after = replayGainSettings.mode == .auto && queue.shuffleMode == .off ? queue.upcoming(limit: 1).first : nil
        return replayGain(of: current, before: previousInOrder, after: after)
    }

    /// Applies new ReplayGain settings: a playing item is restarted at the frame heard, so the
    /// new gain is heard at once.
    func setReplayGain(_ settings: ReplayGainSettings) {
        guard settings != replayGainSettings else { return }
        replayGainSettings = settings
        noteChange(.replayGain)
        restartAtHeardFrame(for: "the new ReplayGain settings", fadingIn: false)
    }

    func changePlaybackRate(_ change: LevelChange) -> CommandResult {
        setPlaybackRate(change.applied(to: playbackRate))
        return .success(.done)
    }

    /// Sets the playback rate (clamped to `CommandCatalog.playbackRateRange`). While playing,
    /// the pipeline restarts at the frame heard with the new rate (the device's buffer holds
    /// up to a second stretched at the old one), unless the item is too short to take it.
    func setPlaybackRate(_ rate: Double) {
        let range = CommandCatalog.playbackRateRange
        let clamped = min(range.upperBound, max(range.lowerBound, (rate * 1000).rounded() / 1000))
        guard clamped != playbackRate else { return }
        playbackRate = clamped
        noteChange(.rate)
        followRate()
    }

    /// Sets the length below which items play at 1 (`rate-min-length`).
    func setRateMinimum(_ seconds: Double) {
        guard seconds != rateMinimumSeconds else { return }
        rateMinimumSeconds = seconds
        followRate()
    }

    /// The rate `item` plays at: the chosen one, or 1 when it is shorter than the minimum.
    func rate(of item: QueueItem) -> Double {
        rateMinimumSeconds == 0 || item.metadata.duration >= rateMinimumSeconds ? playbackRate : 1
    }

    /// Puts a rate change into effect: the current item's at the frame heard, the upcoming
    /// items' where they start.
    private func followRate() {
        if let current = queue.current, rate(of: current) != engine.playbackRate, engine.isRunning {
            restartAtHeardFrame(for: "the new playback rate", fadingIn: true)
        } else {
            refreshUpcoming()
        }
    }

    /// Restarts a running pipeline at the frame heard, so that a change made where the decoder
    /// works is heard at once. With `fadingIn`, on a device that can replace what it holds, the
    /// old audio fades out a few milliseconds ahead and the new fades in after it (no cut).
    private func restartAtHeardFrame(for reason: String, fadingIn: Bool) {
        guard state == .playing, engine.isRunning else { return }
        holdPosition(fadingIn ? engine.splice() : engine.halt())
        if let failure = startEngine(atFrame: heldFrame, fadingIn: fadingIn) {
            log.error("cannot restart with \(reason): \(failure.message)")
        }
    }

    /// `auto` takes the album gain when the queue plays in order and an item next to this one
    /// shares its album; shuffled, every item is on its own (MPD does the same).
    private func replayGain(of item: QueueItem, before: QueueItem?, after: QueueItem?) -> AppliedReplayGain? {
        let inAlbum =
            queue.shuffleMode == .off
            && [before, after].contains { $0.map { $0.metadata.isSameAlbum(as: item.metadata) } ?? false }
        return replayGainSettings.gain(for: item.metadata, inAlbum: inAlbum)
    }

    /// The item played before the current one in queue order; nil when shuffled (no order to
    /// speak of) or at the first item.
    private var previousInOrder: QueueItem? {
        guard queue.shuffleMode == .off, let index = queue.currentIndex, index > 0 else { return nil }
        return queue.items[index - 1]
    }

    private var soundSettings: SoundSettings { SoundSettings(equalizer: equalizer, volume: volume / 100) }

    /// Carries out an equalizer command; a changing one answers with the new curve.
    func performEqualizer(_ command: Command) -> CommandResult {
        var new = equalizer
        switch command {
        case .equalizer:
            return .success(.equalizer(equalizer, presets: presets.names()))
        case .setEqualizerEnabled(let enabled):
            new.isEnabled = enabled
        case .setEqualizerBand(let index, let change):
            guard new.bands.indices.contains(index) else {
                return .failure(
                    CommandFailure(.badRequest, "'band' \(index) is outside the \(new.bands.count) bands (0-based)"))
            }
            new.bands[index] = change.applied(to: new.bands[index])
            new.preset = nil
        case .setEqualizerGains(let gains):
            guard gains.count == new.bands.count else {
                return .failure(
                    CommandFailure(.badRequest, "'gains' has \(gains.count) values for \(new.bands.count) bands"))
            }
            for index in new.bands.indices { new.bands[index].gain = gains[index] }
            new.preset = nil
        case .setEqualizerGlobalGain(let gain):
            new.globalGain = gain
            new.preset = nil
        case .resetEqualizer:
            new = Equalizer(isEnabled: equalizer.isEnabled)
        case .loadEqualizer(let source):
            do throws(CommandFailure) {
                new = try presets.load(source)
            } catch {
                return .failure(error)
            }
        case .saveEqualizer(let name):
            do throws(CommandFailure) {
                try presets.save(equalizer, as: name)
            } catch {
                return .failure(error)
            }
            new.preset = name
        default:
            return .failure(CommandFailure(.commandFailed, "\(command.name.rawValue) is not an equalizer command"))
        }
        if let problem = new.problem { return .failure(CommandFailure(.badRequest, problem)) }
        setEqualizer(new)
        return .success(.equalizer(new, presets: nil))
    }
}
