/// The now-playing snapshot (`MPNowPlayingInfoCenter`'s dictionary, typed).
///
/// Position is `(elapsed, rate, timestamp)`: at wall-clock time `t` the position is
/// `elapsed + rate * (t - timestamp)`, so clients extrapolate without polling.
public struct NowPlaying: Sendable, Equatable {
    public var state: PlaybackState
    /// The current item; nil when now-playing is cleared.
    public var item: QueueItem?
    /// Seconds into the current item at `timestamp`.
    public var elapsed: Double
    /// Media seconds per second while the position advances (`defaultRate`), 0 otherwise.
    public var rate: Double
    /// Seconds since the Unix epoch at which `elapsed` was measured.
    public var timestamp: Double
    public var queueIndex: Int?
    public var queueCount: Int
    public var repeatMode: RepeatMode
    public var shuffleMode: ShuffleMode
    /// Whether playback stops where an item ends (`changeSingleMode`).
    public var singleMode: SingleMode = .off
    /// Whether items leave the queue once played (`changeConsumeMode`).
    public var consumeMode: ConsumeMode = .off
    /// The software volume, percent (100: the samples as decoded).
    public var volume: Double
    /// The playback rate chosen with `changePlaybackRate`, 0.5 - 3 (pitch kept): what `rate`
    /// is while playing (`MPNowPlayingInfoPropertyDefaultPlaybackRate`).
    public var defaultRate: Double
    /// The ReplayGain applied to the item; nil when ReplayGain is off or there is no item.
    public var replayGain: AppliedReplayGain?
    /// The latest change of the audio route since the daemon started; nil before any.
    public var routeChange: RouteChange?
    /// Why playback is `interrupted`: the device's error (it could not be opened, or failed
    /// while playing); nil in every other state.
    public var deviceError: String?
    /// The crossfade between items (`setCrossfade`).
    public var crossfade = Crossfade()
    /// Whether the output is on (`setOutputEnabled`); off, nothing plays.
    public var outputEnabled = true
    /// The chapter playing at `timestamp`; nil when the item has none.
    public var chapter: CurrentChapter?
    /// When the sleep timer pauses playback; nil when none is set.
    public var sleepTimer: SleepTimer?
    /// The A-B loop set in the item; nil when none is.
    public var loopRange: LoopRange?
    /// Phrase mode's settings; nil when it is off.
    public var phraseMode: PhraseMode?
    /// The phrase phrase mode plays; nil when it plays none (off, or the phrases not known).
    public var phrase: CurrentPhrase?

    public init(
        state: PlaybackState, item: QueueItem?, elapsed: Double, rate: Double,
        timestamp: Double, queueIndex: Int?, queueCount: Int,
        repeatMode: RepeatMode = .off, shuffleMode: ShuffleMode = .off, volume: Double = 100,
        defaultRate: Double = 1, replayGain: AppliedReplayGain? = nil, routeChange: RouteChange? = nil
    ) {
        self.routeChange = routeChange
        self.defaultRate = defaultRate
        self.replayGain = replayGain
        self.volume = volume
        self.repeatMode = repeatMode
        self.shuffleMode = shuffleMode
        self.state = state
        self.item = item
        self.elapsed = elapsed
        self.rate = rate
        self.timestamp = timestamp
        self.queueIndex = queueIndex
        self.queueCount = queueCount
    }

    /// Position extrapolated to `time` (seconds since the epoch), clamped to the item (a live
    /// stream has no end): the one
    /// place `elapsed + rate * (time - timestamp)` is computed, for the daemon and its clients.
    public func position(at time: Double) -> Double {
        let raw = max(0, elapsed + rate * max(0, time - timestamp))
        guard let duration = item?.metadata.duration, duration > 0 else { return raw }
        return min(raw, duration)
    }

    /// How far the position must move against the earlier snapshot's prediction to be a jump
    /// (MPRIS's `Seeked`, MPD's `player`): seeks, skips back to the start, restarts and loop
    /// points, but not the daemon's re-anchoring of a drifted position (tens of milliseconds).
    public static let jumpThreshold = 0.5

    /// Whether the position jumped within the same item: this snapshot's position is not where
    /// `earlier` predicted it. Another item is no jump (it is a change of `item`).
    public func jumped(from earlier: NowPlaying) -> Bool {
        guard let item, item.id == earlier.item?.id else { return false }
        return abs(earlier.position(at: timestamp) - elapsed) >= Self.jumpThreshold
    }

    /// When the extrapolated position reaches `position` (seconds since the epoch); nil when it
    /// does not advance.
    public func time(reaching position: Double) -> Double? {
        rate > 0 ? timestamp + (position - elapsed) / rate : nil
    }
}
