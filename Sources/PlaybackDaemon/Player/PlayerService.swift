import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The player's command handler and the one owner of its state. Each step is the same: take
/// in what the engine is heard playing, carry out an operation on the state value
/// (`PlayerState`: a command, an engine event, a deadline), reconcile the engine with the
/// state's plan (`EngineDriver.apply`), derive what follows from the changes (save the
/// bookmarks, ask for phrases), and publish the changes and the events once, with a fresh
/// `PlayerView`, through `onPublish`: never on a timer. Its one timer wakes it at the earliest deadline of
/// the state's and the driver's. Event loop only.
final class PlayerService {
    /// Longest a start is announced late while waiting for the device to show progress.
    static let audibleStartTimeout = 2.0

    private(set) var state: PlayerState
    let driver: EngineDriver
    let prober: ItemProber
    /// Expands and probes what is enqueued, so the socket and playback never wait for it.
    let probing: BackgroundWorker
    /// Ids for new items, reserved by the prober thread.
    let itemIDs = ItemIDs()
    /// Where equalizer presets are loaded from and saved to.
    let presets: EqualizerPresets
    /// Where the bookmarks are kept.
    let bookmarkStore: BookmarkStore
    /// Finds the current item's phrases, for phrase mode.
    let phraseAnalyzer: PhraseAnalyzer
    /// Measures the loudness of the items whose gain comes from it.
    let loudnessAnalyzer: LoudnessAnalyzer
    let log: DaemonLog
    private var pendingChanges: ChangeSet = []
    /// Events of the step not yet published.
    private var pendingEvents: [PlayerEvent] = []
    /// Changes held back until the device starts playing (see `publishChanges`), and until when.
    private var deferredChanges: ChangeSet = []
    private var deferredUntil: Double?
    /// The one timer: the earliest deadline of the state's, the driver's and the deferral's.
    private let deadlineTimer: OneShotTimer
    /// Gives the heap's free memory back a moment after a large change of the queue.
    private let heapTimer: OneShotTimer
    /// The view published last: its snapshot is the anchor the sleep fade is reckoned from, and
    /// it goes with events while a start's changes wait for the device.
    private var publishedView: PlayerView?
    private var published: NowPlaying? { publishedView?.nowPlaying }
    /// Set by the exit's fade: the engine is left as it is from then on.
    private var isStopping = false
    /// The early answer: `play`, `pause`, `togglePlayPause` and `stop` are answered once the
    /// state has changed, before the engine follows (unless the start opens an item's file,
    /// which can fail), so a media key's reply never waits for a device. The reply's delivery
    /// can run the next line of a pipelined request on this very stack, in the middle of the
    /// step: such commands wait here, in order, and are carried out when the step is done.
    /// Nil while no early answer is being delivered.
    private var arrivedDuringAnswer: [() -> Void]?
    /// What waits for a long queue being read at start (`QueueLoading`), in order.
    private var waitingForQueue: [() -> Void] = []
    /// Receives each step's coalesced changes and its events with the view after them: the
    /// one way out of a step (set by the daemon, which hands them to every subsystem).
    var onPublish: (PlayerView, ChangeSet, [PlayerEvent]) -> Void = { _, _, _ in }

    init(
        state: PlayerState, driver: EngineDriver, prober: ItemProber, presets: EqualizerPresets,
        bookmarkStore: BookmarkStore, phraseAnalyzer: PhraseAnalyzer, loudnessAnalyzer: LoudnessAnalyzer,
        loop: EventLoop, log: DaemonLog
    ) {
        self.state = state
        self.driver = driver
        self.prober = prober
        self.presets = presets
        self.bookmarkStore = bookmarkStore
        self.log = log
        self.phraseAnalyzer = phraseAnalyzer
        self.loudnessAnalyzer = loudnessAnalyzer
        probing = BackgroundWorker(name: "pbd-prober", loop: loop)
        deadlineTimer = OneShotTimer(loop: loop)
        heapTimer = OneShotTimer(loop: loop)
        loop.watch(driver.events.fileDescriptor) { [unowned self] _ in handleEngineEvents() }
        phraseAnalyzer.onResult = { [unowned self] result in
            if case .failure(let error) = result.outcome {
                log.warning("cannot find the phrases of \(StreamURL.redacted(result.request.path)): \(error)")
            }
            step { state, _ in state.phrasesFound(result) }
        }
        loudnessAnalyzer.onResult = { [unowned self] path, outcome in
            if case .failure(let failure) = outcome {
                log.warning("cannot measure the loudness of \(StreamURL.redacted(path)): \(failure)")
            }
            step { state, _ in state.loudnessMeasured(outcome, for: path) }
        }
    }

    /// Whether a command can be carried out now. While an early answer is delivered, and while
    /// a long queue is read at start (for all but what shows its head: what `playbackctl
    /// status` asks, and the library's own), `later` is kept and runs, in order, once it can.
    func admits(_ command: Command, otherwise later: @escaping () -> Void) -> Bool {
        if arrivedDuringAnswer != nil {
            arrivedDuringAnswer!.append(later)
            return false
        }
        switch command {
        case .nowPlaying, .subscribe, .player(.commands), .library, .listeningHistory, .scrobbleStatus,
            .scrobbleLogin:
            return true
        default: break
        }
        guard state.loading == nil else {
            waitingForQueue.append(later)
            return false
        }
        return true
    }

    /// Carries out an operation on the state in one step and answers with its result in
    /// domain terms. `play`, `pause`, `togglePlayPause` and `stop` may answer early (`step`).
    func perform(_ command: PlayerCommand, reply: @escaping (CommandResult) -> Void) {
        switch command {
        case .play, .pause, .togglePlayPause, .stop:
            step(answering: reply) { state, moment in state.perform(command, at: moment) }
        default: reply(step { state, moment in state.perform(command, at: moment) })
        }
    }

    // MARK: One step

    /// One step: what the engine is heard playing, then `operation` on the state, then the
    /// engine reconciled with the plan, what follows from the changes, and the publication. A
    /// start that failed is the result of the operation that asked for it. Returns the result.
    ///
    /// With `answer`, the result is also handed to it: as soon as the state has changed when
    /// the engine's part cannot fail (it opens no item's file: starting threads, halting,
    /// opening or closing the device happen after the reply), else at the end. Commands that
    /// arrive while the early answer is delivered wait for the end of the step.
    @discardableResult
    func step(
        answering answer: ((CommandResult) -> Void)? = nil,
        _ operation: (inout PlayerState, Moment) -> (CommandResult, ChangeSet)
    ) -> CommandResult {
        let moment = Moment(heard: driver.observe().heard, now: WallClock.now())
        let wasRetrying = state.retry.isActive
        let countBefore = state.queue.count
        note(state.observe(moment.heard, now: moment.now))
        var (result, changes) = operation(&state, moment)
        note(changes)
        if abs(state.queue.count - countBefore) >= Self.largeChange { releaseHeapSoon() }
        var answer = answer
        var waiting: [() -> Void] = []
        if let early = answer, case .success = result, !startOpensItem() {
            arrivedDuringAnswer = []
            early(result)
            (waiting, arrivedDuringAnswer, answer) = (arrivedDuringAnswer ?? [], nil, nil)
        }
        defer { for later in waiting { later() } }
        if let failure = reconcile(), case .success = result { result = .failure(failure) }
        if !wasRetrying && state.retry.isActive {
            log.notice(
                "'\(driver.deviceName)' is not there: trying again after \(DeviceRetry.firstDelay) s, "
                    + "then up to every \(Int(DeviceRetry.longestDelay)) s; the queue and position are kept",
                event: "device-retry")
        }
        // A seek lands where the engine started (a frame past the item's end is its end).
        if case .success(.position) = result { result = .success(.position(state.heldSeconds)) }
        publishChanges()
        answer?(result)
        return result
    }

    /// Items a step adds, removes or writes anew for the heap to be trimmed after it.
    static let largeChange = 1_000

    /// Gives the heap's free memory back once the work of a large change is over (a second
    /// later: what the step's callers and the save hold is released by then). Probing or
    /// reading many items leaves memory free between the items kept, which malloc keeps
    /// otherwise.
    func releaseHeapSoon() {
        guard !isStopping else { return }
        heapTimer.arm(after: 1) { ProcessHeap.releaseFree() }
    }

    /// Whether the engine, brought to the state's plan now, would open an item's file.
    private func startOpensItem() -> Bool {
        guard let item = state.itemToStart else { return false }
        return driver.opensItem(item.id, connectsAnew: !item.metadata.isSeekable)
    }

    /// A step whose operation has no result to answer with.
    func step(_ operation: (inout PlayerState, Moment) -> ChangeSet) {
        step { state, moment in (.success(.done), operation(&state, moment)) }
    }

    /// Brings the engine to the state's plan, taking in each report; the failure of a start.
    private func reconcile() -> CommandFailure? {
        guard !isStopping else { return nil }
        var failure: CommandFailure?
        for _ in 0..<8 {
            let now = WallClock.now()
            let (plan, planned) = state.plan(shown: published, now: now)
            note(planned)
            guard let report = driver.apply(plan, heard: driver.observe().heard, now: now) else { break }
            switch report {
            case .started(let pipeline, let frame, let resumed):
                state.engineStarted(pipeline: pipeline, at: frame, resumed: resumed)
            case .halted(let position): note(state.engineHalted(at: position))
            case .upcomingConflicts: state.restartWhereHeard(fadesIn: false)
            case .startFailed(let error):
                let (failed, changes) = state.startFailed(error)
                note(changes)
                failure = failure ?? failed
            }
        }
        return failure
    }

    /// Records `changes` for this step's publication.
    @discardableResult
    func note(_ changes: ChangeSet) -> ChangeSet {
        pendingChanges.formUnion(changes)
        return changes
    }

    // MARK: Publishing

    /// Everything a front end shows, now (`PlayerState.view`). Reading it changes nothing.
    func view() -> PlayerView { state.view(driver.observe(), now: WallClock.now()) }

    /// The view's snapshot alone (`PlayerState.nowPlaying`), without the rest of the view.
    func nowPlaying() -> NowPlaying { state.nowPlaying(driver.observe(), now: WallClock.now()) }

    /// The exit: the device plays out what it holds and fades; the position heard last is
    /// held, for the last view (what resume saves, playing still). The bookmark of a long item
    /// is saved there, before returning.
    func fadeOutForExit() {
        isStopping = true
        deadlineTimer.cancel()
        heapTimer.cancel()
        let position = driver.fadeOut()
        note(state.engineHalted(at: position))
        state.bookmarkCurrentItem(at: Moment(heard: position, now: WallClock.now()))
        bookmarkStore.keep(state.bookmarks)
        bookmarkStore.flush()
        // What was being heard ends with the daemon; the last events go out before the stop.
        state.hearingEndsAtExit()
        pendingEvents += state.takeEvents()
        if !pendingEvents.isEmpty { emit([]) }
    }

    /// Hands the changes accumulated in this step to `onPublish`, and asks for what the state
    /// wants found (the current item's phrases, the loudness of the items about to play).
    ///
    /// A start (play, seek or skip while playing) is announced when the device has begun to
    /// play, not when it was asked to: a device can take hundreds of milliseconds to start, and
    /// a snapshot whose `(elapsed, rate, timestamp)` claimed progress before that would make
    /// every client's extrapolation run ahead. Events do not wait: meanwhile they go out with
    /// the view published last and no changes.
    func publishChanges() {
        let moment = Moment(heard: driver.observe().heard, now: WallClock.now())
        note(state.observe(moment.heard, now: moment.now))
        let (wanted, marked) = state.phraseAnalysisWanted(moment.heard)
        note(marked)
        if let wanted { phraseAnalyzer.request(wanted) }
        loudnessAnalyzer.request(state.loudnessWanted())
        state.keepBookmarkSchedule(now: moment.now)
        bookmarkStore.keep(state.bookmarks)
        defer { armDeadlines() }
        pendingEvents += state.takeEvents()
        guard !pendingChanges.isEmpty || !pendingEvents.isEmpty else { return }
        let deviceIsStarting = state.transport == .playing && driver.isRunningAndSilent
        if deviceIsStarting && (!pendingChanges.isEmpty || deferredUntil != nil) {
            deferredChanges.formUnion(pendingChanges)
            pendingChanges = []
            deferredUntil = deferredUntil ?? moment.now + Self.audibleStartTimeout
            if !pendingEvents.isEmpty, let shown = publishedView {
                let events = pendingEvents
                pendingEvents = []
                onPublish(shown, [], events)
            }
            return
        }
        emit(pendingChanges.union(deferredChanges))
    }

    /// Publishes what waited for the device to start (or for the wait to time out). Returns
    /// false when nothing was waiting.
    @discardableResult
    func releaseDeferredChanges() -> Bool {
        guard !deferredChanges.isEmpty else { return false }
        emit(deferredChanges.union(pendingChanges))
        armDeadlines()
        return true
    }

    /// Publishes `changes` (`.chapter` added when the chapter shown changed) and the events
    /// waiting, with a fresh view.
    private func emit(_ changes: ChangeSet) {
        pendingChanges = []
        deferredChanges = []
        deferredUntil = nil
        let events = pendingEvents + state.takeEvents()
        pendingEvents = []
        let view = view()
        publishedView = view
        onPublish(view, changes.union(state.published(view.nowPlaying)), events)
    }

    // MARK: Deadlines

    /// Arms the one timer for the earliest deadline.
    private func armDeadlines() {
        guard !isStopping else { return }
        let shown = view().nowPlaying
        let now = WallClock.now()
        let times =
            StateDeadline.allCases.compactMap { state.deadline($0, shown: shown, now: now) }
            + [driver.nextDeadline, deferredUntil].compactMap { $0 }
        guard let earliest = times.min() else { return deadlineTimer.cancel() }
        deadlineTimer.arm(after: max(0, earliest - now)) { [unowned self] in reachDeadlines() }
    }

    /// What is due now: the deferred publication, the driver's (a hold's release, boundaries
    /// heard), then the state's, each in a step of its own.
    private func reachDeadlines() {
        let now = WallClock.now()
        if let until = deferredUntil, until <= now { releaseDeferredChanges() }
        driver.reachDeadlines(now: now) { id, segment, heard in
            step { state, moment in state.boundaryHeard(id, segment: segment, heard, now: moment.now) }
        }
        let shown = view().nowPlaying
        for deadline in StateDeadline.allCases {
            guard let due = state.deadline(deadline, shown: shown, now: now), due <= now else { continue }
            step { [log] state, moment in
                let (changes, said) = state.reach(deadline, shown: shown, at: moment)
                if let said { log.info(said) }
                return changes
            }
        }
        armDeadlines()
    }
}

/// What reaches the service besides commands, each taken into the state in a step: the
/// engine's events, the prober's results (an enqueue, a restore's checks, covers found again),
/// a route change, a reload, the exit; and the commands that need files (the equalizer's
/// presets).
extension PlayerService {
    // MARK: The engine

    /// Runs on the event loop when the engine's event descriptor fires: what is the service's
    /// (a start heard, a boundary to wait for, what to log), then the rest in one step.
    func handleEngineEvents() {
        let events = driver.takeEvents()
        var reanchors = false
        for event in events {
            log.log(.debug, "engine event: \(event)")
            if let said = event.logLine(device: driver.deviceName, retry: state.retry) {
                log.log(said.level, said.line, event: said.event)
            }
            switch event {
            case .audible:
                pendingEvents.append(.deviceStarted)
                // Heard from where the device is now: it can say so late.
                state.hearingAudible(driver.observe().heard, now: WallClock.now())
                // If the start was already announced (the device was slow), re-anchor clients.
                reanchors = !releaseDeferredChanges()
            case .itemStarted(let id, let segment, let audibleIn):
                driver.scheduleBoundary(id, segment: segment, after: audibleIn, now: WallClock.now())
            case .deviceOpened:
                pendingEvents.append(.deviceOpened(driver.openDevice))
            case .deviceFailed(let error, _, let opening):
                pendingEvents.append(
                    .deviceFailed(PlayerState.deviceErrorMessage(error, opening: opening, device: driver.deviceName)))
            default: break
            }
        }
        let (device, reconnects) = (driver.deviceName, driver.deviceReconnects)
        let result = step { state, moment in
            let changes = state.receive(events, device: device, reconnects: reconnects, at: moment)
            return (.success(.done), changes.union(reanchors ? .position : []))
        }
        if case .failure(let failure) = result {
            log.error("cannot continue with item \(state.queue.currentIndex ?? -1): \(failure.message)")
            if failure.status == .noSuchContent { step { state, _ in state.cannotContinue() } }
        }
    }

    // MARK: Enqueueing

    /// Expands and probes on the prober thread, then adds on the event loop and replies.
    /// Enqueues are applied in the order they arrived.
    func enqueueInBackground(
        _ paths: [String], placement: EnqueuePlacement, replace: Bool, play: Bool,
        reply: @escaping (CommandResult) -> Void
    ) {
        let (prober, ids) = (self.prober, itemIDs)
        probing.submit { [prober, ids] in
            let (items, rejected) = prober.probe(paths, limit: PlaybackQueue.maximumCount + 1, ids: ids)
            return { [unowned self] in
                reply(
                    step { state, moment in
                        state.enqueue(
                            items, rejected: rejected, placement: placement, replace: replace, play: play, at: moment)
                    })
            }
        }
    }

    // MARK: Reports, a reload, the exit

    /// What a subsystem saw, taken in: a route change into the state, a change of the library
    /// or of the clients connected published with the view.
    func receive(_ report: SubsystemReport) {
        switch report {
        case .routeChanged(let change): routeChanged(change)
        case .libraryChanged:
            note(.library)
            publishChanges()
        case .clientsConnected(let count):
            pendingEvents.append(.clientsConnected(count))
            publishChanges()
        }
    }

    /// A route change a watcher saw: taken into the state (`PlayerState.routeChanged`),
    /// pushed, and logged once.
    private func routeChanged(_ change: RouteChange) {
        let before = state.transport
        let result = step { state, moment in
            (.success(.done), state.followingMoves(at: moment) { $0.routeChanged(change) })
        }
        let failure: CommandFailure? = if case .failure(let failure) = result { failure } else { nil }
        let said = state.route.logLine(for: change, before: before, after: state.transport, failure: failure)
        log.log(said.level, said.line, event: said.event)
    }

    /// Applies reloaded settings (`PlayerState.apply`), and the pause hold time.
    func apply(_ new: DaemonSettings, replacing old: DaemonSettings) {
        driver.pauseHoldSeconds = new.pauseHoldSeconds
        step { state, _ in state.apply(new, replacing: old) }
    }

    /// Pushes the position again (the anchor drifted from what the device plays).
    func republishPosition() { step { _, _ in .position } }

    // MARK: A long queue read at start

    /// The queue is whole (or could not be read): what waited for it runs.
    func queueIsWhole() {
        let waiting = waitingForQueue
        waitingForQueue = []
        for body in waiting { body() }
    }

    /// Ends the service's worker threads (the prober, phrase and loudness analysis, the
    /// bookmarks' writer) and waits for them: the last thing before the process exits.
    func stopWorkers() {
        probing.stop()
        phraseAnalyzer.stop()
        loudnessAnalyzer.stop()
        bookmarkStore.stop()
    }
}
