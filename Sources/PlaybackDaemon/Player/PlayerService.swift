import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The player's command handler and the one owner of its state: each typed command from a
/// front end becomes operations on the state value (`PlayerState`) and on the engine's side
/// (`EngineDriver`), answered with a result in domain terms. Every change is recorded as change
/// bits and published once per step, with a fresh `PlayerView`, through `onPublish`: never on
/// a timer. Event loop only.
final class PlayerService {
    /// Longest a start is announced late while waiting for the device to show progress.
    static let audibleStartTimeout = 2.0

    /// Changed by the service's own operations alone (front ends hold no reference to the
    /// service: they send commands and receive published views).
    var state: PlayerState
    let driver: EngineDriver
    let prober: ItemProber
    /// Expands and probes what is enqueued, so the socket and playback never wait for it.
    let probing: BackgroundWorker
    /// Ids for new items, reserved by the prober thread.
    let itemIDs = ItemIDs()
    /// Where equalizer presets are loaded from and saved to.
    let presets: EqualizerPresets
    let log: DaemonLog
    private var pendingChanges: ChangeSet = []
    /// Changes held back until the device starts playing (see `publishChanges`).
    private var deferredChanges: ChangeSet = []
    private let audibleStartTimer: OneShotTimer
    /// Tries a device that comes back by itself again while playback is interrupted.
    let deviceRetry: DeviceRetry
    /// Chapters, bookmarks and the sleep timer: their store and timers.
    let listening: ListeningTimers
    /// Finds the current item's phrases, for phrase mode.
    let phraseAnalyzer: PhraseAnalyzer
    /// Receives each step's coalesced changes with the view after them (set by the daemon).
    var onPublish: (PlayerView, ChangeSet) -> Void = { _, _ in }

    var engine: PlaybackEngine { driver.engine }

    init(
        state: PlayerState, driver: EngineDriver, prober: ItemProber, presets: EqualizerPresets,
        bookmarks: BookmarkStore, sleepFadeSeconds: Double, phraseAnalyzer: PhraseAnalyzer, loop: EventLoop, log: DaemonLog
    ) {
        self.state = state
        listening = ListeningTimers(bookmarks: bookmarks, sleepFadeSeconds: sleepFadeSeconds, loop: loop)
        self.state.startPosition = { [bookmarks] item in bookmarks.position(for: item) }
        self.driver = driver
        self.prober = prober
        self.presets = presets
        self.log = log
        self.phraseAnalyzer = phraseAnalyzer
        probing = BackgroundWorker(name: "pbd-prober", loop: loop)
        audibleStartTimer = OneShotTimer(loop: loop)
        deviceRetry = DeviceRetry(loop: loop)
        driver.engine.setSound(state.soundSettings)
        driver.onBoundaryHeard = { [unowned self] id, segment, heard in boundaryHeard(id, segment: segment, heard) }
        loop.watch(driver.engine.events.fileDescriptor) { [unowned self] _ in
            handleEngineEvents()
            publishChanges()
        }
        phraseAnalyzer.onResult = { [unowned self] result in
            phrasesFound(result)
            publishChanges()
        }
    }

    /// Carries out one command, at once or (enqueue, which probes files) when the prober
    /// thread is done, answers with its result in domain terms, and publishes what it changed.
    /// A disabled remote command is refused here, for every front end.
    func handle(_ command: Command, reply: @escaping (CommandResult) -> Void) {
        let name = command.name
        if CommandCatalog.spec(name).isRemoteCommand && !state.currentAvailability.isEnabled(name) {
            let why =
                state.availability.isEnabled(name)
                ? CommandAvailability.seekCommands.contains(name) && state.queue.current?.metadata.isSeekable == false
                    ? ": the current item is a live stream" : ": the current item has no chapters"
                : ""
            return reply(.failure(CommandFailure(.commandDisabled, "\(name.rawValue) is disabled\(why)")))
        }
        if case .enqueue(let paths, let placement, let replace, let play) = command {
            return enqueueInBackground(paths, placement: placement, replace: replace, play: play, reply: reply)
        }
        syncWithEngine()
        if Self.mayLeaveItem(command) { bookmarkCurrentItem() }
        reply(perform(command))
        if Self.movesPlayback(command) { aimSleepTimer() }
        publishChanges()
    }

    private func perform(_ command: Command) -> CommandResult {
        switch command {
        case .play: play()
        case .pause: pause()
        case .togglePlayPause: state.transport == .playing ? pause() : play()
        case .stop: stop()
        case .nextTrack: nextTrack()
        case .previousTrack: previousTrack()
        case .skipForward(let interval):
            state.isPlayingPhrases ? nextPhrase() : skip(by: interval ?? state.availability.skipForwardIntervals[0])
        case .skipBackward(let interval):
            state.isPlayingPhrases
                ? previousPhrase() : skip(by: -(interval ?? state.availability.skipBackwardIntervals[0]))
        case .changePlaybackPosition(let position): seek(to: position)
        case .changeRepeatMode(let mode): changeModes(state.setRepeat(mode))
        case .changeShuffleMode(let mode): changeModes(state.setShuffle(mode))
        case .changePlaybackRate(let change): changePlaybackRate(change)
        case .changeVolume(let change): changeVolume(change)
        case .equalizer, .setEqualizerEnabled, .setEqualizerBand, .setEqualizerGains, .setEqualizerGlobalGain,
            .resetEqualizer, .loadEqualizer, .saveEqualizer:
            performEqualizer(command)
        case .enqueue: .failure(CommandFailure(.commandFailed, "enqueue is answered in the background"))
        case .remove(let index, let count): remove(at: index, count: count)
        case .move(let from, let to): move(from: from, to: to)
        case .jump(let index): jump(to: index)
        case .clear: clear()
        case .queue(let offset, let limit): .success(.queuePage(state.queuePage(offset: offset, limit: limit)))
        case .nowPlaying, .subscribe: .success(.nowPlaying(view().nowPlaying))
        case .commands: .success(.commands(state.currentAvailability))
        case .setCommandEnabled(let name, let enabled): setEnabled(name, enabled)
        case .nextChapter: nextChapter()
        case .previousChapter: previousChapter()
        case .chapters: listChapters()
        case .setSleepTimer(let request): setSleepTimer(request)
        case .cancelSleepTimer: cancelSleepTimer()
        case .setLoopRange(let start, let end, let count): setLoopRange(start: start, end: end, count: count)
        case .clearLoopRange: clearLoopRange()
        case .setPhraseMode(let change): setPhraseMode(change)
        case .nextPhrase: nextPhrase()
        case .previousPhrase: previousPhrase()
        case .replayPhrase: replayPhrase()
        case .phrases: listPhrases()
        case .analyzePhrases(let threshold, let minimumSilence):
            analyzePhrases(threshold: threshold, minimumSilence: minimumSilence)
        case .bookmarks: listBookmarks()
        case .forgetBookmarks(let path): forgetBookmarks(path: path)
        }
    }

    /// Everything a front end shows, now. Reading it changes nothing. While playing, `elapsed`
    /// and `timestamp` are the output thread's last measurement and the time it was taken (up
    /// to one device period ago), so the anchor carries no extrapolation error; otherwise the
    /// held position, now. Just past an item boundary not yet taken into the state, it shows
    /// the item heard.
    func view() -> PlayerView {
        var shown = state
        var frame = state.heldFrame
        var timestamp = WallClock.now()
        // In a phrase's gap the position holds.
        var advances = isAdvancing
        if state.transport == .playing, let heard = engine.currentPosition() {
            advances = advances && !heard.isGap
            _ = shown.follow(toItem: heard.itemID)
            frame = heard.frame
            if let (measured, age) = engine.measuredPosition(), measured.itemID == heard.itemID,
                measured.segment == heard.segment
            {
                frame = measured.frame
                timestamp -= age
            }
        }
        return PlayerView(
            nowPlaying: shown.snapshot(
                frame: frame, timestamp: timestamp, rate: advances ? engine.runningRate : 0, now: WallClock.now()),
            availability: shown.currentAvailability, equalizer: state.equalizer,
            resume: shown.resumeState(frame: frame))
    }

    /// Whether the position is advancing: playing, and the device has started.
    private var isAdvancing: Bool { state.transport == .playing && engine.isAudible }

    /// Stopped with nothing queued: nothing for the daemon to do until a command arrives.
    var isIdle: Bool { state.transport == .stopped && state.queue.isEmpty }

    /// Records `changes` for this step's publication, and returns them.
    @discardableResult
    func note(_ changes: ChangeSet) -> ChangeSet {
        pendingChanges.formUnion(changes)
        return changes
    }

    /// Sets the transport state and tells the driver, which arms or cancels the pause hold.
    func setTransport(_ new: PlaybackState) {
        let changes = state.setTransport(new)
        guard !changes.isEmpty else { return }
        note(changes)
        driver.transportChanged(to: new)
        followDeviceRetry()
    }

    /// Hands the changes accumulated in this step to `onPublish`.
    ///
    /// A start (play, seek or skip while playing) is announced when the device has begun to
    /// play, not when it was asked to: a device can take hundreds of milliseconds to start, and
    /// a snapshot whose `(elapsed, rate, timestamp)` claimed progress before that would make
    /// every client's extrapolation run ahead.
    func publishChanges() {
        syncWithEngine()
        analysePhrasesIfWanted()
        guard !pendingChanges.isEmpty else { return }
        if state.transport == .playing && engine.isRunning && !engine.isAudible {
            deferredChanges.formUnion(pendingChanges)
            pendingChanges = []
            if !audibleStartTimer.isArmed {
                audibleStartTimer.arm(after: Self.audibleStartTimeout) { [unowned self] in releaseDeferredChanges() }
            }
            return
        }
        let changes = pendingChanges.union(deferredChanges)
        pendingChanges = []
        deferredChanges = []
        audibleStartTimer.cancel()
        emit(changes)
    }

    /// Publishes `changes` with a fresh view, and arms what follows the position from it: the
    /// next chapter's announcement, the sleep timer, the bookmark's periodic save.
    private func emit(_ changes: ChangeSet) {
        let published = view()
        var changes = changes
        // A chapter other than the one last shown, in the same item, is a chapter change,
        // whatever brought it (a boundary, a seek, a start announced late).
        if let item = published.nowPlaying.item, let announced = listening.announcedChapter, announced.item == item.id,
            announced.chapter != published.nowPlaying.chapter?.number
        {
            changes.insert(.chapter)
        }
        onPublish(published, changes)
        followChapters(published.nowPlaying)
        followSleepTimer(published.nowPlaying)
        followBookmarks()
    }

    /// Publishes what waited for the device to start (or for the wait to time out).
    /// Returns false when nothing was waiting.
    @discardableResult
    func releaseDeferredChanges() -> Bool {
        audibleStartTimer.cancel()
        guard !deferredChanges.isEmpty else { return false }
        let changes = deferredChanges.union(pendingChanges)
        deferredChanges = []
        pendingChanges = []
        emit(changes)
        return true
    }

    /// Frame heard now in the current item.
    func playedFrame() -> Int {
        guard state.transport == .playing, let position = engine.currentPosition() else { return state.heldFrame }
        note(state.follow(toItem: position.itemID))
        return position.frame
    }

    /// Makes the queue's current item the one the engine is playing.
    func syncWithEngine() {
        if state.transport == .playing, let position = engine.currentPosition() {
            note(state.follow(toItem: position.itemID))
        }
    }

    /// Applies reloaded settings (`PlayerState.apply`), and the pause hold time; a new sound
    /// setting reaches the engine, new ReplayGain restarts at the frame heard.
    func apply(_ new: DaemonSettings, replacing old: DaemonSettings) {
        driver.pauseHoldSeconds = new.pauseHoldSeconds
        listening.bookmarks.minimumDuration = new.bookmarkMinimumSeconds
        listening.sleepFadeSeconds = new.sleepFadeSeconds
        let rateMinimum = state.rateMinimumSeconds
        let changes = state.apply(new, replacing: old)
        note(changes)
        soundChanged(changes)
        if state.rateMinimumSeconds != rateMinimum { followRate() }
        publishChanges()
    }

    /// Pushes the position again (the anchor drifted from what the device plays).
    func republishPosition() {
        note(.position)
        publishChanges()
    }

    /// The exit: the device plays out what it holds and fades; the position heard last is
    /// held, for the last view (what resume saves).
    /// The bookmark of a long item is saved there, before returning.
    func fadeOutForExit() {
        holdPosition(engine.fadeOut())
        bookmarkCurrentItem()
        listening.bookmarks.flush()
    }

    /// Ends the service's worker threads (the prober, phrase analysis, the bookmarks' writer)
    /// and waits for them: the last thing before the process exits.
    func stopWorkers() {
        probing.stop()
        phraseAnalyzer.stop()
        listening.bookmarks.stop()
    }
}
