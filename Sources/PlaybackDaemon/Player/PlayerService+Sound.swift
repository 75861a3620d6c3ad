import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The sound commands: the volume, the playback rate, ReplayGain and the equalizer. Each change
/// goes to the engine at once (the output takes it within a block and crossfades to it,
/// docs/sound.md) and is published.
extension PlayerService {
    func changeVolume(_ change: LevelChange) -> CommandResult {
        soundChanged(note(state.setVolume(change.applied(to: state.volume))))
        return .success(.done)
    }

    func changePlaybackRate(_ change: LevelChange) -> CommandResult {
        soundChanged(note(state.setPlaybackRate(change.applied(to: state.playbackRate))))
        return .success(.done)
    }

    /// Puts changed sound settings into effect: the volume and equalizer in the engine at
    /// once; new ReplayGain settings and a new rate by restarting a playing item at the frame
    /// heard (the device's buffer holds up to a second made with the old ones).
    func soundChanged(_ changes: ChangeSet) {
        if !changes.isDisjoint(with: [.volume, .equalizer]) { engine.setSound(state.soundSettings) }
        if changes.contains(.replayGain) {
            restartAtHeardFrame(for: "with the new ReplayGain settings", fadingIn: false)
        }
        if changes.contains(.rate) { followRate() }
    }

    /// Puts a rate change into effect: the current item's at the frame heard, the upcoming
    /// items' where they start.
    func followRate() {
        if let current = state.queue.current, state.rate(of: current) != engine.playbackRate, engine.isRunning {
            restartAtHeardFrame(for: "with the new playback rate", fadingIn: true)
        } else {
            refreshUpcoming()
        }
    }

    /// Carries out an equalizer command; a changing one answers with the new curve.
    func performEqualizer(_ command: Command) -> CommandResult {
        var new = state.equalizer
        switch command {
        case .equalizer:
            return .success(.equalizer(state.equalizer, presets: presets.names()))
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
            new = Equalizer(isEnabled: state.equalizer.isEnabled)
        case .loadEqualizer(let source):
            do throws(CommandFailure) {
                new = try presets.load(source)
            } catch {
                return .failure(error)
            }
        case .saveEqualizer(let name):
            do throws(CommandFailure) {
                try presets.save(state.equalizer, as: name)
            } catch {
                return .failure(error)
            }
            new.preset = name
        default:
            return .failure(CommandFailure(.commandFailed, "\(command.name.rawValue) is not an equalizer command"))
        }
        if let problem = new.problem { return .failure(CommandFailure(.badRequest, problem)) }
        soundChanged(note(state.setEqualizer(new)))
        return .success(.equalizer(new, presets: nil))
    }
}
