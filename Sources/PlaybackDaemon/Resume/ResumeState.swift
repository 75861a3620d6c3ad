import ControlProtocol
import PlaybackModel

/// What the daemon needs to carry on after a restart or a crash: the queue with its
/// metadata and priorities (so nothing is probed again), the current item and position, whether it was
/// playing, the play modes, the sound settings and crossfade clients set, whether the output
/// is on, and which commands clients disabled.
struct ResumeState: Equatable, Sendable {
    /// Bumped when the file's shape changes incompatibly. Version 1 (one line, the items in it
    /// as objects) is still read; other versions are set aside.
    static let formatVersion = 2

    var items: [QueueItem]
    var currentIndex: Int?
    /// Seconds into the current item.
    var position: Double
    var state: PlaybackState
    var repeatMode: RepeatMode
    var shuffleMode: ShuffleMode
    /// The shuffled play order of the current cycle (indices into `items`), when shuffled.
    var shuffledOrder: [Int]?
    /// Off in files from before it existed.
    var singleMode: SingleMode = .off
    /// Off in files from before it existed.
    var consumeMode: ConsumeMode = .off
    var disabledCommands: Set<CommandName>
    /// The software volume, percent; nil in files from before it existed.
    var volume: Double? = nil
    /// The equalizer; nil in files from before it existed.
    var equalizer: Equalizer? = nil
    /// The playback rate; nil in files from before it existed.
    var playbackRate: Double? = nil
    /// Phrase mode; nil in files from before it existed.
    var phraseMode: PhraseMode? = nil
    /// The crossfade; nil in files from before it existed.
    var crossfade: Crossfade? = nil
    /// False while the output is off; nil when it is on (and in files from before).
    var outputEnabled: Bool? = nil
    /// Which items these are (not saved): equal versions have equal items, so their
    /// serialized form can be reused.
    var itemsVersion = ItemsVersion()
}

/// Identifies a queue's items: the queue (a restore replaces it) and its `itemsRevision`.
struct ItemsVersion: Equatable, Sendable {
    var queue: UInt64 = 0
    var revision: UInt64 = 0
}
