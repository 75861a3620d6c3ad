import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The sound settings as a value: the software volume, the playback rate and the length below
/// which items keep rate 1, the equalizer and ReplayGain. Each change says what it changed.
struct SoundState: Equatable {
    /// The software volume, percent.
    private(set) var volume = 100.0
    /// Media seconds per second while playing, pitch kept: the rate chosen, which items shorter
    /// than `rateMinimumSeconds` do not take.
    private(set) var playbackRate = 1.0
    /// Items shorter than this play at 1 whatever the chosen rate (`rate-min-length`; 0: none).
    private(set) var rateMinimumSeconds = 0.0
    private(set) var equalizer = Equalizer()
    private(set) var replayGain = ReplayGainSettings()
    /// The crossfade between items.
    private(set) var crossfade = Crossfade()

    init(settings: DaemonSettings) {
        _ = setVolume(settings.volume)
        equalizer = settings.equalizer
        replayGain = settings.replayGain
        rateMinimumSeconds = settings.rateMinimumSeconds
        crossfade = settings.crossfade
    }

    /// The crossfade (its seconds to a millisecond, clamped to `Crossfade.secondsRange`).
    mutating func setCrossfade(_ new: Crossfade) -> ChangeSet {
        var new = new
        let range = Crossfade.secondsRange
        new.seconds = min(range.upperBound, max(range.lowerBound, (new.seconds * 1000).rounded() / 1000))
        guard new != crossfade else { return [] }
        crossfade = new
        return .crossfade
    }

    /// The software volume, clamped to 0 - 100 %.
    mutating func setVolume(_ level: Double) -> ChangeSet {
        let clamped = min(100, max(0, level))
        guard clamped != volume else { return [] }
        volume = clamped
        return .volume
    }

    mutating func setEqualizer(_ new: Equalizer) -> ChangeSet {
        guard new != equalizer else { return [] }
        equalizer = new
        return .equalizer
    }

    mutating func setReplayGain(_ settings: ReplayGainSettings) -> ChangeSet {
        guard settings != replayGain else { return [] }
        replayGain = settings
        return .replayGain
    }

    /// The ReplayGain mode a client chose (the rest of ReplayGain is the settings').
    mutating func setReplayGainMode(_ mode: ReplayGainMode) -> ChangeSet {
        var settings = replayGain
        settings.mode = mode
        return setReplayGain(settings)
    }

    /// The playback rate, to a thousandth, clamped to `CommandCatalog.playbackRateRange`.
    mutating func setPlaybackRate(_ rate: Double) -> ChangeSet {
        let range = CommandCatalog.playbackRateRange
        let clamped = min(range.upperBound, max(range.lowerBound, (rate * 1000).rounded() / 1000))
        guard clamped != playbackRate else { return [] }
        playbackRate = clamped
        return .rate
    }

    /// The length below which items play at 1. Whether it changed (no client sees it).
    mutating func setRateMinimum(_ seconds: Double) -> Bool {
        guard seconds != rateMinimumSeconds else { return false }
        rateMinimumSeconds = seconds
        return true
    }

    /// The rate `item` plays at: the chosen one, or 1 when it is shorter than the minimum.
    func rate(of item: QueueItem) -> Double {
        rateMinimumSeconds == 0 || item.metadata.duration >= rateMinimumSeconds ? playbackRate : 1
    }

    /// The equalizer and volume, as the engine takes them.
    var engineSettings: SoundSettings { SoundSettings(equalizer: equalizer, volume: volume / 100) }
}
