import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The sound commands: the volume and the equalizer. Each change goes to the engine at once
/// (the output takes it within a block and crossfades to it, docs/sound.md) and is published.
extension PlayerService {
    func changeVolume(_ change: VolumeChange) -> CommandResult {
        switch change {
        case .to(let level): setVolume(level)
        case .by(let points): setVolume(volume + points)
        }
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
