import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The player as a value: the queue and its modes, the transport state, the position held
/// while no pipeline runs, the sound settings, the route policy and which commands are enabled.
///
/// Every operation is a plain function that returns the `ChangeSet` it caused, so the rules
/// (what `previousTrack` does 3 s in, what removing the current item does, what a reload
/// changes) are tested with no engine, no loop and no clock. `PlayerService` owns the one
/// instance; nothing else changes it, and every field is set here alone.
struct PlayerState {
    /// `previousTrack` restarts the current item when more than this many seconds in.
    static let restartThreshold = 3.0

    private(set) var queue = PlaybackQueue()
    /// Counts the times `queue` was replaced as a whole (a restore), for `ItemsVersion`.
    private(set) var queueGeneration: UInt64 = 0
    private(set) var transport: PlaybackState = .stopped
    /// Frame within the current item while no pipeline runs (paused, stopped, interrupted).
    private(set) var heldFrame = 0
    private(set) var availability: CommandAvailability
    /// The software volume, percent.
    private(set) var volume = 100.0
    /// Media seconds per second while playing, pitch kept: the rate chosen, which items shorter
    /// than `rateMinimumSeconds` do not take.
    private(set) var playbackRate = 1.0
    /// Items shorter than this play at 1 whatever the chosen rate (`rate-min-length`; 0: none).
    private(set) var rateMinimumSeconds = 0.0
    private(set) var equalizer = Equalizer()
    private(set) var replayGainSettings = ReplayGainSettings()
    /// The latest route change, for the snapshot.
    private(set) var routeChange: RouteChange?
    /// What a lost output device does (`on-route-lost`).
    private(set) var onRouteLost = RouteLostAction.pause
    /// What a new device does to playback a lost one paused (`on-route-back`).
    private(set) var onRouteBack = RouteBackAction.stayPaused
    /// Whether the pause in effect is one a lost device caused (only that one resumes itself).
    private(set) var isPausedByRouteLoss = false
    /// When playback is to pause by itself; nil when no sleep timer is set.
    private(set) var sleepTimer: SleepTimer?
    /// The A-B loop set, in whichever item.
    private var storedLoop: LoopRange?
    /// The pass the running pipeline's first segment plays; nil when it plays no pass.
    private(set) var loopFirstPass: Int?
    /// Phrase mode (`setPhraseMode`).
    var phraseMode = PhraseMode()
    /// The phrases found in an item (the current one, or the one before it changed), with the
    /// parameters they were found with.
    var storedPhrases: StoredPhrases?
    /// Analysis parameters set for one item over the socket (`analyzePhrases`), by item id.
    var itemPhraseParameters: [UInt64: PhraseParameters] = [:]
    /// The configuration's analysis parameters.
    var phraseDefaults = PhraseParameters()
    /// The phrase step and the item it is in (`phraseStep`).
    var storedPhraseStep: (itemID: UInt64, step: PhraseStep)?
    /// Where an item starts when it becomes current: its bookmark (`BookmarkStore`), else 0.
    var startPosition: (QueueItem) -> Double? = { _ in nil }

    /// The state the daemon starts with: empty, stopped, with the configuration's settings.
    init(settings: DaemonSettings) {
        availability = CommandAvailability(
            disabled: settings.disabled,
            skipForwardIntervals: [settings.skipForwardInterval],
            skipBackwardIntervals: [settings.skipBackwardInterval])
        _ = setVolume(settings.volume)
        equalizer = settings.equalizer
        replayGainSettings = settings.replayGain
        rateMinimumSeconds = settings.rateMinimumSeconds
        onRouteLost = settings.onRouteLost
        onRouteBack = settings.onRouteBack
        phraseDefaults = settings.phrases
    }

    // MARK: Transport and position

    /// A new transport state ends a pause a lost device caused (only that one resumes itself).
    mutating func setTransport(_ new: PlaybackState) -> ChangeSet {
        guard new != transport else { return [] }
        transport = new
        isPausedByRouteLoss = false
        return .state
    }

    /// Paused because the output device went away: the one pause `on-route-back` may end.
    mutating func pauseForLostRoute() -> ChangeSet {
        let changes = setTransport(.paused)
        isPausedByRouteLoss = true
        return changes
    }

    /// Records where playback stands in the current item while no pipeline runs (a halt's
    /// position, a start's first frame). No change bit: the change that caused it has its own.
    mutating func hold(_ frame: Int) { heldFrame = frame }

    /// Moves the held position (a seek while not playing).
    mutating func moveHeld(to frame: Int) -> ChangeSet {
        heldFrame = frame
        return .position
    }

    /// Makes the item the engine plays the current one (it moved on by itself).
    mutating func follow(toItem id: UInt64) -> ChangeSet {
        guard queue.current?.id != id, queue.follow(toItem: id) else { return [] }
        return ChangeSet.item.union(dropLoop())
    }

    /// Stop: the position goes back to the start (a long item's bookmark); the queue and the
    /// current item stay.
    mutating func stop() -> ChangeSet {
        let start = startFrame()
        let changes: ChangeSet = heldFrame != start ? .position : []
        heldFrame = start
        return changes.union(setTransport(.stopped))
    }

    /// Where the current item starts: its bookmark's frame, else 0.
    func startFrame() -> Int {
        guard let item = queue.current, let seconds = startPosition(item) else { return 0 }
        return item.metadata.frame(at: seconds)
    }

    /// Past the last item: stopped, with no current item.
    mutating func playOut() -> ChangeSet {
        queue.playOut()
        heldFrame = 0
        return ChangeSet.item.union(setTransport(.stopped))
    }

    // MARK: Navigation

    /// `play` with no current item takes the queue's first (or first shuffled) one. Returns
    /// nil when the queue is empty.
    mutating func beginIfNeeded() -> ChangeSet? {
        guard queue.current == nil else { return [] }
        guard queue.begin() else { return nil }
        heldFrame = startFrame()
        return .item
    }

    /// The item after the current one (`automatic`: where the current one simply ended, so
    /// repeat-one plays it again), from its start; nil past the last.
    mutating func advance(automatic: Bool = false) -> ChangeSet? {
        guard queue.advance(automatic: automatic), queue.current != nil else { return nil }
        return restartItem()
    }

    /// A pipeline ended on a format change at `id`: that item, from its start.
    mutating func advance(toItem id: UInt64) -> ChangeSet? {
        guard queue.follow(toItem: id), queue.current != nil else { return nil }
        return restartItem()
    }

    /// `previousTrack`, `elapsed` seconds into the current item: the item before, from its
    /// start, unless more than `restartThreshold` in or at the first item. Nil when the current
    /// item restarts instead (a seek to its start).
    mutating func retreat(elapsed: Double) -> ChangeSet? {
        guard elapsed <= Self.restartThreshold, queue.retreat() else { return nil }
        return restartItem()
    }

    /// The item at `index` (in range), from its start.
    mutating func select(_ index: Int) -> ChangeSet {
        _ = queue.select(index)
        return restartItem()
    }

    /// The current item from its start (a long item's bookmark).
    mutating func restartItem() -> ChangeSet {
        heldFrame = startFrame()
        return ChangeSet([.item, .position]).union(dropLoop())
    }

    // MARK: The queue

    /// Adds probed items at `placement`, emptying the queue first with `replace`. Returns the
    /// changes and the index of the first new item.
    mutating func insert(
        _ items: [QueueItem], placement: EnqueuePlacement, replace: Bool
    ) -> (changes: ChangeSet, firstNew: Int) {
        if replace { queue.removeAll() }
        var changes: ChangeSet = .queue
        let hadCurrent = queue.current != nil
        if !hadCurrent { changes.insert(.item) }
        let firstNew: Int
        switch replace ? .end : placement {
        case .end: firstNew = queue.count
        case .next: firstNew = queue.currentIndex.map { $0 + 1 } ?? queue.count
        case .index(let index): firstNew = index
        }
        queue.insert(items, at: firstNew, playNext: placement == .next && !replace)
        if !hadCurrent { heldFrame = startFrame() }
        return (changes, firstNew)
    }

    /// Removes the items at `offsets` (each in range). When the current item goes, the one
    /// that would have played next becomes current, from its start, or there is none.
    mutating func remove(at offsets: Set<Int>) -> (changes: ChangeSet, removedCurrent: Bool) {
        guard queue.remove(at: offsets) else { return (.queue, false) }
        heldFrame = startFrame()
        return ([.queue, .item, .position], true)
    }

    mutating func move(from: Int, to: Int) -> ChangeSet {
        queue.move(from: from, to: to)
        return .queue
    }

    /// Empties the queue and stops.
    mutating func clear() -> ChangeSet {
        let changes: ChangeSet = queue.isEmpty ? [] : [.queue, .item]
        queue.removeAll()
        heldFrame = 0
        return changes.union(setTransport(.stopped))
    }

    mutating func setRepeat(_ mode: RepeatMode) -> ChangeSet {
        guard mode != queue.repeatMode else { return [] }
        queue.repeatMode = mode
        return .modes
    }

    mutating func setShuffle(_ mode: ShuffleMode) -> ChangeSet {
        guard mode != queue.shuffleMode else { return [] }
        queue.setShuffle(mode)
        return .modes
    }

    /// Gives items their extracted covers back (nil: the cover is gone).
    mutating func setArtworkPaths(_ paths: [UInt64: String?]) -> ChangeSet {
        guard !paths.isEmpty else { return [] }
        queue.setArtworkPaths(paths)
        let current = queue.current.map { paths[$0.id] != nil } ?? false
        return current ? [.queue, .item] : .queue
    }

    /// Gives the live stream at `url` the title it announced (its items' artist and title).
    mutating func setStreamTitle(_ title: StreamTitle, for url: String) -> ChangeSet {
        let changed = queue.updateMetadata(at: url) { metadata in
            guard !metadata.isSeekable else { return }
            metadata.artist = title.artist
            metadata.title = title.title
        }
        guard !changed.isEmpty else { return [] }
        return queue.current.map { changed.contains($0.id) } ?? false ? [.queue, .item] : .queue
    }

    /// The items that follow the current one (`PlaybackQueue.upcoming`), which decides the
    /// next shuffle cycle when the list reaches it.
    mutating func upcoming(limit: Int) -> [QueueItem] { queue.upcoming(limit: limit) }

    // MARK: Sound

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
        guard settings != replayGainSettings else { return [] }
        replayGainSettings = settings
        return .replayGain
    }

    /// The playback rate, to a thousandth, clamped to `CommandCatalog.playbackRateRange`.
    mutating func setPlaybackRate(_ rate: Double) -> ChangeSet {
        let range = CommandCatalog.playbackRateRange
        let clamped = min(range.upperBound, max(range.lowerBound, (rate * 1000).rounded() / 1000))
        guard clamped != playbackRate else { return [] }
        playbackRate = clamped
        return .rate
    }

    /// The length below which items play at 1. Returns whether it changed (no client sees it).
    mutating func setRateMinimum(_ seconds: Double) -> Bool {
        guard seconds != rateMinimumSeconds else { return false }
        rateMinimumSeconds = seconds
        return true
    }

    // MARK: The sleep timer

    mutating func setSleepTimer(_ timer: SleepTimer?) -> ChangeSet {
        guard timer != sleepTimer else { return [] }
        sleepTimer = timer
        return .sleepTimer
    }

    // MARK: The A-B loop

    /// The A-B loop of the current item; nil when none is set (a loop ends with its item).
    var loopRange: LoopRange? { storedLoop?.itemID == queue.current?.id ? storedLoop : nil }

    mutating func setLoop(_ loop: LoopRange?) -> ChangeSet {
        guard loop != loopRange else { return [] }
        storedLoop = loop
        return .loop
    }

    /// A pipeline started at `frame` of the current item: when that is before the loop's end,
    /// its segment 0 is the pass playing, and segment `n` the pass `n` later (or, past the
    /// last pass, the rest of the item: `engineItems` lays them out so).
    mutating func loopPipelineStarted(atFrame frame: Int) {
        guard let loop = loopRange, let item = queue.current, frame < item.metadata.frame(at: loop.end) else {
            return loopFirstPass = nil
        }
        loopFirstPass = loop.pass
    }

    /// The current item's pipeline began its segment `segment`: the next pass, or the rest of
    /// the item after the last one (the loop ends). Counted by segment, not by the moment it
    /// is heard: on a device that takes audio faster than real time several boundaries pass
    /// between two announcements.
    mutating func loopSegmentBegan(_ segment: Int) -> ChangeSet {
        guard var loop = loopRange, let first = loopFirstPass else { return [] }
        let pass = first + segment
        guard loop.count == 0 || pass <= loop.count else {
            loopFirstPass = nil
            return setLoop(nil)
        }
        loop.pass = pass
        return setLoop(loop)
    }

    private mutating func dropLoop() -> ChangeSet {
        guard storedLoop != nil else { return [] }
        storedLoop = nil
        return .loop
    }

    // MARK: Commands, settings and the route

    mutating func setEnabled(_ name: CommandName, _ enabled: Bool) -> ChangeSet {
        availability.set(name, enabled: enabled) ? .commands : []
    }

    /// Reloaded settings: the route policy, the rate minimum and ReplayGain take the file's;
    /// the equalizer and volume only where the file changed them (otherwise what clients set
    /// stays); the skip intervals, and the commands whose enablement changed in the file
    /// (others keep what clients set).
    mutating func apply(_ new: DaemonSettings, replacing old: DaemonSettings) -> ChangeSet {
        onRouteLost = new.onRouteLost
        onRouteBack = new.onRouteBack
        phraseDefaults = new.phrases
        _ = setRateMinimum(new.rateMinimumSeconds)
        var changes = setReplayGain(new.replayGain)
        if new.equalizer != old.equalizer { changes.formUnion(setEqualizer(new.equalizer)) }
        if new.volume != old.volume { changes.formUnion(setVolume(new.volume)) }
        if availability.skipForwardIntervals != [new.skipForwardInterval]
            || availability.skipBackwardIntervals != [new.skipBackwardInterval]
        {
            availability.skipForwardIntervals = [new.skipForwardInterval]
            availability.skipBackwardIntervals = [new.skipBackwardInterval]
            changes.insert(.commands)
        }
        for name in new.disabled.subtracting(old.disabled) { changes.formUnion(setEnabled(name, false)) }
        for name in old.disabled.subtracting(new.disabled) { changes.formUnion(setEnabled(name, true)) }
        return changes
    }

    /// A route change a watcher saw, for the snapshot.
    mutating func noteRoute(_ change: RouteChange) -> ChangeSet {
        routeChange = change
        return .route
    }

    // MARK: Resume

    /// Takes over a saved state: its queue less the items at `vanished` (whose files are
    /// gone; a vanished current item gives way to the next one, from its start), its modes,
    /// disabled commands and sound settings. Paused where it was playing or paused.
    mutating func restore(_ saved: ResumeState, items: [QueueItem], vanished: Set<Int>) -> ChangeSet {
        queueGeneration += 1
        queue = PlaybackQueue.restored(
            items: items, currentIndex: saved.currentIndex, repeatMode: saved.repeatMode,
            shuffleMode: saved.shuffleMode, shuffledOrder: saved.shuffledOrder)
        // The queue's own removal gives a vanished current item's place to the one after it.
        let position = queue.remove(at: vanished) ? 0 : saved.position
        var changes: ChangeSet = [.queue, .item, .modes]
        for name in saved.disabledCommands { changes.formUnion(setEnabled(name, false)) }
        if let volume = saved.volume { changes.formUnion(setVolume(volume)) }
        if let rate = saved.playbackRate { changes.formUnion(setPlaybackRate(rate)) }
        if let equalizer = saved.equalizer { changes.formUnion(setEqualizer(equalizer)) }
        if let mode = saved.phraseMode { changes.formUnion(setPhraseMode(mode)) }
        guard let item = queue.current else { return changes }
        heldFrame = item.metadata.frame(at: position)
        if saved.state != .stopped { changes.formUnion(setTransport(.paused)) }
        return changes
    }
}
