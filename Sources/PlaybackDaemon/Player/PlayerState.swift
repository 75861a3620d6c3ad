import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The player as a value: the queue and its modes, the transport state, the position held
/// while no pipeline runs, which commands are enabled, and each listening feature as a value
/// of its own (the sound settings, the route policy, the sleep timer, the A-B loop, phrase
/// mode, the bookmarks, the retries of a device that comes back by itself).
///
/// Every operation is a plain function that returns the `ChangeSet` it caused, so the rules
/// (what `previousTrack` does 3 s in, what removing the current item does, what a reload
/// changes, where a book starts) are tested with no engine, no loop, no clock and no disk: what
/// the engine hears comes in as an `EnginePosition`, the time as seconds. What the engine is to
/// play follows from the state (`plan`); `PlayerService` owns the one instance.
struct PlayerState {
    /// `previousTrack` restarts the current item when more than this many seconds in.
    static let restartThreshold = 3.0

    private(set) var queue = PlaybackQueue()
    /// Counts the times `queue` was replaced as a whole (a restore), for `ItemsVersion`.
    private(set) var queueGeneration: UInt64 = 0
    private(set) var transport: PlaybackState = .stopped
    /// Frame within the current item while no pipeline runs (paused, stopped, interrupted).
    private(set) var heldFrame = 0
    /// Whether the state chose the held frame while a pipeline still ran (a sleep timer's
    /// pause at its boundary): the halt's own position then does not replace it.
    private(set) var holdIsChosen = false
    /// The pipeline the engine is to run while playing (`EnginePlan.Start`): raised by every
    /// discontinuity (play, a seek, another item, a setting that restarts the sound).
    private(set) var start = PlannedStart()
    private(set) var availability: CommandAvailability
    private(set) var sound: SoundState
    private(set) var route: RouteState
    private(set) var sleep: SleepTimerState
    private(set) var abLoop = ABLoopState()
    private(set) var phrases: PhraseState
    private(set) var bookmarks: BookmarkBook
    /// Items' measured loudness, for the gain of those without ReplayGain tags (kept by the plan:
    /// PlayerState+Plan).
    var loudness = LoudnessBook()
    private(set) var retry = DeviceRetry()
    /// Why playback is interrupted: the device's error, shown while `transport` is.
    private(set) var deviceError: String?
    /// What has been heard of the current item.
    private(set) var hearing = Hearing()
    /// The item and chapter the last published snapshot showed (`published`).
    private(set) var announced: AnnouncedChapter?
    /// When a long item playing next saves its bookmark (`PlayerState+Deadlines`).
    private(set) var bookmarkDue: Double?
    /// The long queue being read at start, whose current item alone the queue holds; nil once
    /// it is whole.
    private(set) var loading: QueueLoading?

    /// The state the daemon starts with: empty, stopped, with the configuration's settings and
    /// the bookmarks kept.
    init(settings: DaemonSettings, bookmarks: BookmarkBook? = nil) {
        availability = CommandAvailability(
            disabled: settings.disabled,
            skipForwardIntervals: [settings.skipForwardInterval],
            skipBackwardIntervals: [settings.skipBackwardInterval])
        sound = SoundState(settings: settings)
        route = RouteState(onLost: settings.onRouteLost, onBack: settings.onRouteBack)
        sleep = SleepTimerState(fadeSeconds: settings.sleepFadeSeconds)
        phrases = PhraseState(defaults: settings.phrases)
        self.bookmarks = bookmarks ?? BookmarkBook(minimumDuration: settings.bookmarkMinimumSeconds)
        hearing.countsStreamTitles = settings.scrobbling.streams
    }

    // MARK: Transport and position

    /// A new transport state ends a pause a lost device caused (only that one resumes itself),
    /// and tries of a device that comes back by itself unless it is `interrupted` still.
    mutating func setTransport(_ new: PlaybackState) -> ChangeSet {
        guard new != transport else { return [] }
        transport = new
        if new != .interrupted { deviceError = nil }
        route.setPausedByLoss(false)
        // A retry's own start (playing) keeps counting until it succeeds.
        if new == .paused || new == .stopped { retry.reset() }
        return .state
    }

    /// Playback is interrupted because of `reason` (the device's error, `deviceError`).
    mutating func interrupt(because reason: String) -> ChangeSet {
        var changes = setTransport(.interrupted)
        if reason != deviceError { changes.insert(.state) }
        deviceError = reason
        return changes
    }

    /// Records where playback stands in the current item while no pipeline runs. No change
    /// bit: the change that caused it has its own.
    mutating func hold(_ frame: Int) { heldFrame = frame }

    /// Moves the held position (a seek while not playing, a pause at a boundary).
    mutating func moveHeld(to frame: Int) -> ChangeSet {
        heldFrame = frame
        holdIsChosen = true
        return .position
    }

    /// Where the running pipeline stopped, unless the state chose where it holds.
    mutating func holdHalted(at frame: Int) {
        if !holdIsChosen { heldFrame = frame }
    }

    /// Makes the item the engine plays the current one (it moved on by itself: the one left
    /// was played, and consume takes it).
    mutating func follow(toItem id: UInt64) -> ChangeSet {
        let left = queue.current
        guard left?.id != id, queue.follow(toItem: id) else { return [] }
        return ChangeSet.item.union(abLoop.drop()).union(consume(left)).union(spendPriority())
    }

    /// The current item starts (or, at a `single` stop, is made ready to): its priority is
    /// spent.
    mutating func spendPriority() -> ChangeSet {
        changeQueue { $0.spendCurrentPriority() } ? .queue : []
    }

    /// Follows what the engine plays, when it plays: the item heard becomes current.
    mutating func follow(_ heard: EnginePosition?) -> ChangeSet {
        guard transport == .playing, let heard else { return [] }
        return follow(toItem: heard.itemID)
    }

    /// The frame heard in the current item: the engine's while it plays it, else the held one.
    func playedFrame(_ heard: EnginePosition?) -> Int {
        guard transport == .playing, let heard, heard.itemID == queue.current?.id else { return heldFrame }
        return heard.frame
    }

    /// Seconds heard in the current item.
    func playedSeconds(_ heard: EnginePosition?) -> Double {
        queue.current?.metadata.seconds(atFrame: playedFrame(heard)) ?? 0
    }

    /// Plays the current item from `frame` (nil: wherever the running pipeline ends): a new
    /// pipeline, fading in where a restart in mid-sound would begin with a step.
    mutating func startPlaying(at frame: Int?, fadesIn: Bool = false) -> ChangeSet {
        if let frame { heldFrame = frame }
        holdIsChosen = false
        start.begin(at: frame, fadesIn: fadesIn)
        return setTransport(.playing).union(spendPriority())
    }

    /// Restarts a running pipeline where it is heard, so that what changed where the decoder
    /// works is heard at once (nothing when not playing).
    mutating func restartWhereHeard(fadesIn: Bool) {
        guard transport == .playing else { return }
        start.begin(at: nil, fadesIn: fadesIn)
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
        guard let item = queue.current, let seconds = bookmarks.position(for: item) else { return 0 }
        return item.metadata.frame(at: seconds)
    }

    /// Where playback stops at an item's end (`single`): paused, the next item current at its
    /// start (as MPD's single pauses at the border); `once` is then off.
    mutating func stopAtItemEnd() -> ChangeSet {
        var changes = setTransport(.paused).union(spendPriority())
        guard queue.singleMode == .once else { return changes }
        changeQueue { $0.singleMode = .off }
        changes.insert(.modes)
        return changes
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
        return ChangeSet([.item, .position]).union(abLoop.drop())
    }

    // MARK: Changing a part (how the state's other files set its fields)

    @discardableResult mutating func changeQueue<R>(_ body: (inout PlaybackQueue) -> R) -> R { body(&queue) }
    @discardableResult mutating func changeSound<R>(_ body: (inout SoundState) -> R) -> R { body(&sound) }
    @discardableResult mutating func changeSleep<R>(_ body: (inout SleepTimerState) -> R) -> R { body(&sleep) }
    @discardableResult mutating func changeABLoop<R>(_ body: (inout ABLoopState) -> R) -> R { body(&abLoop) }
    @discardableResult mutating func changePhrases<R>(_ body: (inout PhraseState) -> R) -> R { body(&phrases) }
    @discardableResult mutating func changeBookmarks<R>(_ body: (inout BookmarkBook) -> R) -> R { body(&bookmarks) }
    @discardableResult mutating func changeRetry<R>(_ body: (inout DeviceRetry) -> R) -> R { body(&retry) }
    @discardableResult mutating func changeHearing<R>(_ body: (inout Hearing) -> R) -> R { body(&hearing) }
    mutating func changeStart<Result>(_ body: (inout PlannedStart) -> Result) -> Result { body(&start) }
    mutating func setBookmarkDue(_ time: Double?) { bookmarkDue = time }

    /// A saved queue takes the place of the queue (a restore); with `loading`, it is the head
    /// of a long one still being read.
    mutating func replaceQueue(with restored: PlaybackQueue, loading: QueueLoading? = nil) {
        queueGeneration += 1
        queue = restored
        self.loading = loading
    }

    // MARK: Commands, settings and the route

    mutating func setEnabled(_ name: CommandName, _ enabled: Bool) -> ChangeSet {
        availability.set(name, enabled: enabled) ? .commands : []
    }

    /// Reloaded settings: the route policy, whether stream titles count as listens, the rate minimum, ReplayGain (its mode only where the
    /// file changed it), the phrase, sleep and bookmark settings take the file's; the equalizer,
    /// volume and crossfade only where the file changed them (otherwise what clients set stays); the skip intervals, and the commands whose
    /// enablement changed in the file (others keep what clients set).
    mutating func apply(_ new: DaemonSettings, replacing old: DaemonSettings) -> ChangeSet {
        route.setPolicy(onLost: new.onRouteLost, onBack: new.onRouteBack)
        phrases.setDefaults(new.phrases)
        sleep.setFadeSeconds(new.sleepFadeSeconds)
        bookmarks.setMinimumDuration(new.bookmarkMinimumSeconds)
        hearing.countsStreamTitles = new.scrobbling.streams
        let rate = currentRate
        var replayGain = new.replayGain
        if new.replayGain.mode == old.replayGain.mode { replayGain.mode = sound.replayGain.mode }
        var changes = sound.setReplayGain(replayGain)
        _ = sound.setRateMinimum(new.rateMinimumSeconds)
        if new.equalizer != old.equalizer { changes.formUnion(sound.setEqualizer(new.equalizer)) }
        if new.volume != old.volume { changes.formUnion(sound.setVolume(new.volume)) }
        if new.crossfade != old.crossfade { changes.formUnion(sound.setCrossfade(new.crossfade)) }
        if availability.skipForwardIntervals != [new.skipForwardInterval]
            || availability.skipBackwardIntervals != [new.skipBackwardInterval]
        {
            availability.skipForwardIntervals = [new.skipForwardInterval]
            availability.skipBackwardIntervals = [new.skipBackwardInterval]
            changes.insert(.commands)
        }
        for name in new.disabled.subtracting(old.disabled) { changes.formUnion(setEnabled(name, false)) }
        for name in old.disabled.subtracting(new.disabled) { changes.formUnion(setEnabled(name, true)) }
        soundChanged(changes, rateBefore: rate)
        return changes
    }

    /// The rate the current item plays at; nil without one.
    var currentRate: Double? { queue.current.map(sound.rate(of:)) }

    /// What a sound change does to a running pipeline: new ReplayGain is heard from the frame
    /// heard (the device's buffer holds up to a second made with the old), and so is a new rate
    /// for the current item, fading in (no cut). The volume and equalizer reach the engine with
    /// the plan, and the upcoming items' rates where they start.
    mutating func soundChanged(_ changes: ChangeSet, rateBefore: Double?) {
        if currentRate != rateBefore {
            restartWhereHeard(fadesIn: true)
        } else if changes.contains(.replayGain) {
            restartWhereHeard(fadesIn: false)
        }
    }

    /// The output switched on or off: off, playing pauses (the device is let go as for any
    /// pause) and `play` is refused until it is on; on again, nothing resumes by itself.
    mutating func setOutputEnabled(_ enabled: Bool) -> ChangeSet {
        var changes = route.setOutputEnabled(enabled)
        if !enabled && (transport == .playing || transport == .interrupted) { changes.formUnion(setTransport(.paused)) }
        return changes
    }

    /// A route change a watcher saw: recorded for the snapshot; a lost device pauses playback
    /// (`on-route-lost`), and a new one resumes what a lost one paused when `on-route-back`
    /// says so.
    mutating func routeChanged(_ change: RouteChange) -> ChangeSet {
        var changes = route.note(change)
        switch change.reason {
        case .oldDeviceUnavailable:
            if (transport == .playing || transport == .interrupted) && route.onLost == .pause {
                changes.formUnion(setTransport(.paused))
                route.setPausedByLoss(true)
            }
        case .newDeviceAvailable:
            if route.isPausedByLoss && transport == .paused && route.onBack == .resume && route.outputEnabled {
                changes.formUnion(startPlaying(at: heldFrame))
            }
        }
        return changes
    }

    // MARK: The published snapshot

    /// The snapshot `published` went out: its item and chapter are what clients have seen.
    /// Returns `.chapter` when the chapter differs from the one shown before in the same item,
    /// whatever brought it (a boundary, a seek, a start announced late).
    mutating func published(_ snapshot: NowPlaying) -> ChangeSet {
        let now = snapshot.item.map { AnnouncedChapter(item: $0.id, chapter: snapshot.chapter?.number) }
        defer { announced = now }
        guard let now, let announced, announced.item == now.item, announced.chapter != now.chapter else { return [] }
        return .chapter
    }
}

/// The item and chapter a published snapshot showed.
struct AnnouncedChapter: Equatable {
    var item: UInt64
    var chapter: Int?
}

/// The pipeline the state wants running while it plays: which one (`pipeline`, a number raised by
/// each start), from which frame (nil: where the running one ends, a restart in place), whether it
/// fades in, and which pipeline the engine runs (`runningPipeline`).
struct PlannedStart: Equatable {
    /// A skip's crossfade: the item left, from the frame it was heard at, for `frames`.
    struct FadeOut: Equatable {
        var item: QueueItem
        var frame: Int
        var frames: Int
    }

    /// The number of the pipeline wanted; another number is another pipeline.
    private(set) var pipeline = 0
    private(set) var frame: Int?
    private(set) var fadesIn = false
    /// The item the new pipeline fades out of first; nil for none.
    private(set) var fadeOut: FadeOut?
    /// The number of the pipeline running; nil when none runs.
    private(set) var runningPipeline: Int?

    /// A new pipeline at `frame`.
    mutating func begin(at frame: Int?, fadesIn: Bool) {
        pipeline += 1
        self.frame = frame
        self.fadesIn = fadesIn
        fadeOut = nil
    }

    /// The new pipeline (not started yet) fades out of `fade` first.
    mutating func fade(from fade: FadeOut) {
        guard runningPipeline != pipeline else { return }
        fadeOut = fade
    }

    /// The running pipeline ended at `frame` for a restart in place: the new one starts there.
    mutating func place(at frame: Int) {
        if self.frame == nil { self.frame = frame }
    }

    /// Pipeline number `pipeline` runs.
    mutating func started(_ pipeline: Int) { runningPipeline = pipeline }

    /// No pipeline runs (it played out, or the device failed).
    mutating func stopped() { runningPipeline = nil }
}
