import PlaybackModel

/// Wire names of every request, in the order they are documented.
public enum CommandName: String, CaseIterable, Sendable {
    case play, pause, togglePlayPause, stop, nextTrack, previousTrack
    case skipForward, skipBackward, changePlaybackPosition
    case changeRepeatMode, changeShuffleMode, changeSingleMode, changeConsumeMode, changePlaybackRate, changeVolume,
        setCrossfade, setReplayGainMode,
        setOutputEnabled
    case equalizer, setEqualizerEnabled, setEqualizerBand, setEqualizerGains, setEqualizerGlobalGain
    case resetEqualizer, loadEqualizer, saveEqualizer
    case nextChapter, previousChapter, chapters
    case setSleepTimer, cancelSleepTimer, setLoopRange, clearLoopRange
    case setPhraseMode, nextPhrase, previousPhrase, replayPhrase, phrases, analyzePhrases
    case enqueue, remove, move, shuffleQueue, setPriority, jump, clear, queue, nowPlaying, commands, subscribe,
        setCommandEnabled
    case bookmarks, forgetBookmarks
    case libraryQuery, libraryUpdate, libraryAnalyze, libraryStatus, libraryFailures, setRating
    case listeningHistory, scrobbleStatus, scrobbleLogin
}

/// When `setSleepTimer` is to pause playback.
public enum SleepRequest: Sendable, Equatable {
    /// This many seconds from now.
    case seconds(Double)
    /// At the end of the item or chapter playing.
    case boundary(SleepTimer.Boundary)
}

/// What `setPhraseMode` asks for: each setting not given keeps its value.
public struct PhraseModeChange: Sendable, Equatable {
    public var enabled: Bool
    public var repeats: Int?
    public var gapFactor: Double?
    public var gapExtra: Double?

    public init(enabled: Bool, repeats: Int? = nil, gapFactor: Double? = nil, gapExtra: Double? = nil) {
        self.enabled = enabled
        self.repeats = repeats
        self.gapFactor = gapFactor
        self.gapExtra = gapExtra
    }

    /// `mode` with this change applied.
    public func applied(to mode: PhraseMode) -> PhraseMode {
        PhraseMode(
            isEnabled: enabled, repeats: repeats ?? mode.repeats, gapFactor: gapFactor ?? mode.gapFactor,
            gapExtra: gapExtra ?? mode.gapExtra)
    }
}

/// Where `enqueue` puts its items.
public enum EnqueuePlacement: Sendable, Equatable {
    /// After the last item.
    case end
    /// Right after the current item (and next in a shuffled order): "play next".
    case next
    /// Before the item at this index (the queue's length appends).
    case index(Int)
}

/// What `changeVolume` (in percent) and `changePlaybackRate` (a factor) ask for.
public enum LevelChange: Sendable, Equatable {
    /// To this level.
    case to(Double)
    /// Up (positive) or down by this much, clamped to the level's range.
    case by(Double)

    /// The level asked for, from `level` now (before clamping to the level's range).
    public func applied(to level: Double) -> Double {
        switch self {
        case .to(let new): new
        case .by(let step): level + step
        }
    }
}

/// What `setEqualizerBand` changes in one band; nil members stay as they are.
public struct EQBandChange: Sendable, Equatable {
    public var type: EQFilterType?
    public var frequency: Double?
    /// Octaves; setting it drops the band's Q.
    public var bandwidth: Double?
    public var q: Double?
    public var gain: Double?
    public var bypass: Bool?

    /// A change that changes nothing; set the members to change.
    public init() {}

    /// `band` with the change made.
    public func applied(to band: EQBand) -> EQBand {
        var band = band
        if let type { band.type = type }
        if let frequency { band.frequency = frequency }
        if let bandwidth {
            band.bandwidth = bandwidth
            band.q = nil
        }
        if let q { band.q = q }
        if let gain { band.gain = gain }
        if let bypass { band.bypass = bypass }
        return band
    }
}

/// Where `loadEqualizer` reads a curve.
public enum EqualizerSource: Sendable, Equatable {
    /// A built-in or saved preset by name.
    case preset(String)
    /// A parametric EQ text file (AutoEq's `ParametricEQ.txt`) by absolute path.
    case file(String)
}

/// A request after validation, by the part of the daemon that carries it out: the daemon's
/// router switches over these cases, and each part over its own commands, so the compiler
/// checks that every command has its place and its operation.
public enum Command: Sendable, Equatable {
    /// An operation on the player's state, in one step.
    case player(PlayerCommand)
    /// Files added to the queue once they are probed (on the prober's thread).
    case enqueue(paths: [String], placement: EnqueuePlacement, replace: Bool, play: Bool)
    /// Library songs (an album's in disc and track order) added to the queue with the tags the
    /// library holds: nothing is probed.
    case enqueueLibrary(LibrarySelection, placement: EnqueuePlacement, replace: Bool, play: Bool)
    /// The now-playing snapshot.
    case nowPlaying
    /// The now-playing snapshot; the front end then pushes each change to the client.
    case subscribe
    /// The equalizer with the presets' names, or a preset loaded or saved: the presets' files.
    case presets(PresetCommand)
    /// The music library's.
    case library(LibraryCommand)
    /// A page of the listening history, newest first: hearings that began in `since ..< until`
    /// (seconds since the epoch; nil: no bound).
    case listeningHistory(offset: Int, limit: Int, since: Double?, until: Double?)
    /// How each scrobbling service stands.
    case scrobbleStatus
    /// The desktop authorisation of a service: without `token`, begin it (an address to allow
    /// playbackd at); with the token it gave, ask whether it was allowed, and keep the session.
    case scrobbleLogin(ScrobbleService, token: String?)
}

/// An operation on the player's state: transport, navigation, modes, the sound, chapters,
/// the sleep timer, loops, phrases, the queue's order, the commands' switches, bookmarks.
public enum PlayerCommand: Sendable, Equatable {
    case play
    case pause
    case togglePlayPause
    case stop
    case nextTrack
    case previousTrack
    /// `interval` nil means the command's preferred interval.
    case skipForward(interval: Double?)
    case skipBackward(interval: Double?)
    case changePlaybackPosition(position: Double)
    case changeRepeatMode(RepeatMode)
    case changeShuffleMode(ShuffleMode)
    case changeSingleMode(SingleMode)
    case changeConsumeMode(ConsumeMode)
    /// The playback rate, pitch kept (`MPChangePlaybackRateCommand`).
    case changePlaybackRate(LevelChange)
    case changeVolume(LevelChange)
    /// Either or both of the crossfade's length and mode; the other stays.
    case setCrossfade(seconds: Double?, mode: Crossfade.Mode?)
    /// Which ReplayGain applies, until a restart (config.toml's `replay-gain` is what lasts).
    case setReplayGainMode(ReplayGainMode)
    /// Switches the output on or off (nil: the other way); off, nothing plays.
    case setOutputEnabled(Bool?)
    case setEqualizerEnabled(Bool)
    /// Changes band `index` (0-based).
    case setEqualizerBand(index: Int, EQBandChange)
    /// Sets every band's gain, one value per band.
    case setEqualizerGains([Double])
    case setEqualizerGlobalGain(Double)
    /// Ten flat one-octave bands (32 Hz - 16 kHz), no preamp, no global gain; on or off as before.
    case resetEqualizer
    case nextChapter
    /// Restarts the chapter when more than 3 s into it, else goes to the one before.
    case previousChapter
    case chapters
    case setSleepTimer(SleepRequest)
    case cancelSleepTimer
    /// An A-B loop of `count` passes (0: endless), seconds into the current item.
    case setLoopRange(start: Double, end: Double, count: Int)
    case clearLoopRange
    /// Phrase mode on or off; settings not given keep their values.
    case setPhraseMode(PhraseModeChange)
    case nextPhrase
    case previousPhrase
    /// The phrase playing again from its start, all its repeats.
    case replayPhrase
    case phrases
    /// The current item analysed again with its own threshold and minimum silence (nil: the
    /// configuration's).
    case analyzePhrases(threshold: Double?, minimumSilence: Double?)
    /// Removes `count` items starting at `index`.
    case remove(index: Int, count: Int)
    case move(from: Int, to: Int)
    /// Puts `count` items from `index` (nil: to the end) in a random order, once.
    case shuffleQueue(index: Int, count: Int?)
    /// Gives the items at `indices` the priority (0 - 255) a shuffled order plays them by.
    case setPriority(UInt8, indices: [Int])
    case jump(index: Int)
    case clear
    /// A page of the queue: `limit` items from `offset`.
    case queue(offset: Int, limit: Int)
    case commands
    case setCommandEnabled(CommandName, enabled: Bool)
    case bookmarks
    /// Forgets the bookmark of the file at `path`, or every bookmark (nil).
    case forgetBookmarks(path: String?)
}

/// What `equalizer`, `loadEqualizer` and `saveEqualizer` ask of the presets.
public enum PresetCommand: Sendable, Equatable {
    /// The curve, with the presets' names.
    case list
    case load(EqualizerSource)
    case save(name: String)
}

/// A command carried out by the music library.
public enum LibraryCommand: Sendable, Equatable {
    /// Songs, albums or names from the library.
    case query(LibraryQuery)
    /// Scans the library (under `path` when given) for what changed; `full` reads every tag again.
    case update(path: String?, full: Bool)
    /// Measures the loudness of the songs not measured yet (`full`: of every song) now.
    case analyze(full: Bool)
    case status
    /// A page of the files the library could not read.
    case failures(offset: Int, limit: Int)
    /// A song's rating, 0 (none) to 5.
    case setRating(id: String, rating: Int)
}

/// Which library songs an `enqueue` adds.
public enum LibrarySelection: Sendable, Equatable {
    /// Song and album ids, in this order.
    case ids([String])
    /// The songs a query finds, in its order.
    case query(LibraryQuery)
}

/// One parsed request line: the optional client `id` to echo, and the command.
public struct Request: Sendable, Equatable {
    public var id: JSONValue?
    public var command: Command

    public init(id: JSONValue? = nil, command: Command) {
        self.id = id
        self.command = command
    }
}

extension Command {
    /// The wire name of this command.
    public var name: CommandName {
        switch self {
        case .player(let command): command.name
        case .enqueue, .enqueueLibrary: .enqueue
        case .nowPlaying: .nowPlaying
        case .subscribe: .subscribe
        case .presets(.list): .equalizer
        case .presets(.load): .loadEqualizer
        case .presets(.save): .saveEqualizer
        case .library(.query): .libraryQuery
        case .library(.update): .libraryUpdate
        case .library(.analyze): .libraryAnalyze
        case .library(.status): .libraryStatus
        case .library(.failures): .libraryFailures
        case .library(.setRating): .setRating
        case .listeningHistory: .listeningHistory
        case .scrobbleStatus: .scrobbleStatus
        case .scrobbleLogin: .scrobbleLogin
        }
    }
}

extension PlayerCommand {
    /// The wire name of this command.
    public var name: CommandName {
        switch self {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .skipForward: .skipForward
        case .skipBackward: .skipBackward
        case .changePlaybackPosition: .changePlaybackPosition
        case .changeRepeatMode: .changeRepeatMode
        case .changeShuffleMode: .changeShuffleMode
        case .changeSingleMode: .changeSingleMode
        case .changeConsumeMode: .changeConsumeMode
        case .changePlaybackRate: .changePlaybackRate
        case .changeVolume: .changeVolume
        case .setCrossfade: .setCrossfade
        case .setReplayGainMode: .setReplayGainMode
        case .setOutputEnabled: .setOutputEnabled
        case .setEqualizerEnabled: .setEqualizerEnabled
        case .setEqualizerBand: .setEqualizerBand
        case .setEqualizerGains: .setEqualizerGains
        case .setEqualizerGlobalGain: .setEqualizerGlobalGain
        case .resetEqualizer: .resetEqualizer
        case .nextChapter: .nextChapter
        case .previousChapter: .previousChapter
        case .chapters: .chapters
        case .setSleepTimer: .setSleepTimer
        case .cancelSleepTimer: .cancelSleepTimer
        case .setLoopRange: .setLoopRange
        case .clearLoopRange: .clearLoopRange
        case .setPhraseMode: .setPhraseMode
        case .nextPhrase: .nextPhrase
        case .previousPhrase: .previousPhrase
        case .replayPhrase: .replayPhrase
        case .phrases: .phrases
        case .analyzePhrases: .analyzePhrases
        case .bookmarks: .bookmarks
        case .forgetBookmarks: .forgetBookmarks
        case .remove: .remove
        case .move: .move
        case .shuffleQueue: .shuffleQueue
        case .setPriority: .setPriority
        case .jump: .jump
        case .clear: .clear
        case .queue: .queue
        case .commands: .commands
        case .setCommandEnabled: .setCommandEnabled
        }
    }
}
