import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The single owner of the now-playing state: the queue, the transport state, the position
/// while nothing plays, and command availability. Requests arrive as typed commands on the
/// control loop; every change is recorded as change bits and published once per step through
/// `onChanges`, never on a timer.
final class PlayerService {
    /// Previous-track restarts the current item when more than this many seconds in.
    static let restartThreshold = 3.0

    var queue = PlaybackQueue()
    /// Counts the times `queue` was replaced as a whole (a restore), for `ItemsVersion`.
    var queueGeneration: UInt64 = 0
    private(set) var state: PlaybackState = .stopped
    /// Frame within the current item while no pipeline runs (paused, stopped, interrupted).
    var heldFrame = 0
    var availability: CommandAvailability
    /// The software volume, percent.
    var volume = 100.0
    /// Media seconds per second while playing, pitch kept (`changePlaybackRate`): the rate
    /// chosen, which items shorter than `rateMinimumSeconds` do not take.
    var playbackRate = 1.0
    /// Items shorter than this play at 1 whatever the chosen rate (`rate-min-length`; 0: none).
    var rateMinimumSeconds = 0.0
    /// The equalizer the output applies.
    var equalizer = Equalizer()
    /// How ReplayGain is applied.
    var replayGainSettings = ReplayGainSettings()
    /// The latest route change, for the snapshot.
    var routeChange: RouteChange?
    /// What a lost output device does (`on-route-lost`).
    var onRouteLost = RouteLostAction.pause
    /// What a new device does to playback a lost one paused (`on-route-back`).
    var onRouteBack = RouteBackAction.stayPaused
    /// Whether the pause in effect is one a lost device caused (only that one resumes itself).
    var isPausedByRouteLoss = false
    /// Where equalizer presets are loaded from and saved to (set by the daemon).
    var presets = EqualizerPresets(directory: nil)
    let engine: PlaybackEngine
    let prober: ItemProber
    /// Expands and probes what is enqueued, so the socket and playback never wait for it.
    let probing: BackgroundWorker
    var pauseHoldSeconds: Double
    let log: DaemonLog
    /// Ids for new items, reserved by the prober thread.
    let itemIDs = ItemIDs()
    /// Whether the missing real-time priority was logged (it is said once).
    var hasReportedNoRealtime = false
    /// Longest a start is announced late while waiting for the device to show progress.
    static let audibleStartTimeout = 2.0

    private var pendingChanges: ChangeSet = []
    /// Changes held back until the device starts playing (see `publishChanges`).
    private var deferredChanges: ChangeSet = []
    private let holdTimer: OneShotTimer
    /// Publishes an item boundary when it becomes audible (see `scheduleItemChange`).
    let boundaryTimer: OneShotTimer
    let audibleStartTimer: OneShotTimer
    /// Receives each step's coalesced changes (set by the daemon).
    var onChanges: (ChangeSet) -> Void = { _ in }
    /// Called when a pipeline has started, with the device open (set by the daemon: the route
    /// watch looks at what the device is).
    var onEngineStarted: () -> Void = {}

    init(
        engine: PlaybackEngine, prober: ItemProber, availability: CommandAvailability,
        pauseHoldSeconds: Double, loop: ControlLoop, log: DaemonLog
    ) {
        self.engine = engine
        self.prober = prober
        probing = BackgroundWorker(name: "pbd-prober", loop: loop)
        self.availability = availability
        self.pauseHoldSeconds = pauseHoldSeconds
        self.log = log
        holdTimer = OneShotTimer(loop: loop)
        boundaryTimer = OneShotTimer(loop: loop)
        audibleStartTimer = OneShotTimer(loop: loop)
        loop.watch(engine.events.fileDescriptor) { [unowned self] _ in
            self.handleEngineEvents()
            self.publishChanges()
        }
    }

    /// Carries out one command, at once or (enqueue, which probes files) when the prober
    /// thread is done, answers with its result in domain terms, and publishes what it changed.
    /// A disabled remote command is refused here, for every front end.
    func handle(_ command: Command, reply: @escaping (CommandResult) -> Void) {
        let name = command.name
        if CommandCatalog.spec(name).isRemoteCommand && !availability.isEnabled(name) {
            return reply(.failure(CommandFailure(.commandDisabled, "\(name.rawValue) is disabled")))
        }
        if case .enqueue(let paths, let placement, let replace, let play) = command {
            return enqueueInBackground(paths, placement: placement, replace: replace, play: play, reply: reply)
        }
        syncWithEngine()
        reply(perform(command))
        publishChanges()
    }

    private func perform(_ command: Command) -> CommandResult {
        switch command {
        case .play: play()
        case .pause: pause()
        case .togglePlayPause: state == .playing ? pause() : play()
        case .stop: stop()
        case .nextTrack: nextTrack()
        case .previousTrack: previousTrack()
        case .skipForward(let interval): skip(by: interval ?? availability.skipForwardIntervals[0])
        case .skipBackward(let interval): skip(by: -(interval ?? availability.skipBackwardIntervals[0]))
        case .changePlaybackPosition(let position): seek(to: position)
        case .changeRepeatMode(let mode): setRepeat(mode)
        case .changeShuffleMode(let mode): setShuffle(mode)
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
        case .queue(let offset, let limit): queuePage(offset: offset, limit: limit)
        case .nowPlaying, .subscribe: .success(.nowPlaying(snapshot()))
        case .commands: .success(.commands(availability))
        case .setCommandEnabled(let name, let enabled): setEnabled(name, enabled)
        }
    }

    /// The now-playing snapshot. While playing, `elapsed` and `timestamp` are the output
    /// thread's last measurement and the time it was taken (up to one device period ago), so
    /// the anchor carries no extrapolation error; otherwise the held position, now.
    func snapshot() -> NowPlaying {
        syncWithEngine()
        var frame = heldFrame
        var timestamp = WallClock.now()
        if state == .playing, let (measured, age) = engine.measuredPosition() {
            let heard = engine.currentPosition()
            if measured.itemID == queue.current?.id && measured.segment == (heard?.segment ?? measured.segment) {
                frame = measured.frame
                timestamp -= age
            } else {
                // Measured just before an item boundary (or a loop point) already announced.
                frame = heard?.frame ?? heldFrame
            }
        }
        let item = queue.current
        return NowPlaying(
            state: state, item: item,
            elapsed: item.map { Double(frame) / Double($0.metadata.sampleRate) } ?? 0,
            rate: isAdvancing ? engine.runningRate : 0, timestamp: timestamp,
            queueIndex: queue.currentIndex, queueCount: queue.count,
            repeatMode: queue.repeatMode, shuffleMode: queue.shuffleMode, volume: volume,
            defaultRate: playbackRate, replayGain: currentReplayGain(), routeChange: routeChange)
    }

    func setState(_ newState: PlaybackState) {
        guard newState != state else { return }
        state = newState
        noteChange(.state)
        isPausedByRouteLoss = false
        if newState == .playing { holdTimer.cancel() } else { boundaryTimer.cancel() }
        if newState == .paused || newState == .interrupted { armHoldTimer() }
        if newState == .stopped { holdTimer.cancel() }
    }

    func noteChange(_ changes: ChangeSet) { pendingChanges.formUnion(changes) }

    /// Whether the position is advancing: playing, and the device has started.
    var isAdvancing: Bool { state == .playing && engine.isAudible }

    /// Hands the changes accumulated in this step to `onChanges`.
    ///
    /// A start (play, seek or skip while playing) is announced when the device has begun to
    /// play, not when it was asked to: a device can take hundreds of milliseconds to start, and
    /// a snapshot whose `(elapsed, rate, timestamp)` claimed progress before that would make
    /// every client's extrapolation run ahead.
    func publishChanges() {
        syncWithEngine()
        guard !pendingChanges.isEmpty else { return }
        if state == .playing && engine.isRunning && !engine.isAudible {
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
        onChanges(changes)
    }

    /// Publishes what waited for the device to start (or for the wait to time out).
    /// Returns false when nothing was waiting.
    @discardableResult
    func releaseDeferredChanges() -> Bool {
        guard !deferredChanges.isEmpty else { return false }
        let changes = deferredChanges.union(pendingChanges)
        deferredChanges = []
        pendingChanges = []
        onChanges(changes)
        return true
    }

    /// Frame heard now in the current item.
    func playedFrame() -> Int {
        guard state == .playing, let position = engine.currentPosition() else { return heldFrame }
        sync(toItem: position.itemID)
        return position.frame
    }

    /// Makes the queue's current item the one the engine is playing.
    func syncWithEngine() {
        if state == .playing, let position = engine.currentPosition() { sync(toItem: position.itemID) }
    }

    func sync(toItem id: UInt64) {
        guard queue.current?.id != id, queue.follow(toItem: id) else { return }
        noteChange(.item)
    }

    /// Arms the device's release: after the hold time, or at once (on the loop's next turn,
    /// after the pause has taken its position) for a sound server's stream, which costs
    /// wake-ups while held and reopens in under a millisecond.
    private func armHoldTimer() {
        let hold = engine.isServerStream ? 0 : pauseHoldSeconds
        holdTimer.arm(after: hold) { [unowned self] in
            guard state != .playing, engine.isDeviceOpen else { return }
            engine.releaseDevice()
            if hold > 0 {
                log.info("released \(engine.deviceName) after \(hold) s paused")
            } else {
                log.log(.debug, "released \(engine.deviceName), a sound server's stream, at the pause")
            }
        }
    }

    /// Stopped with nothing queued: nothing for the daemon to do until a command arrives.
    var isIdle: Bool { state == .stopped && queue.isEmpty }

    /// Applies reloaded settings: the pause hold time, the skip intervals, and the commands
    /// whose enablement changed in the configuration (others keep what clients set).
    func apply(_ new: DaemonSettings, replacing old: DaemonSettings) {
        pauseHoldSeconds = new.pauseHoldSeconds
        onRouteLost = new.onRouteLost
        onRouteBack = new.onRouteBack
        setRateMinimum(new.rateMinimumSeconds)
        // Changed sound settings in the file win; otherwise what clients set stays.
        if new.equalizer != old.equalizer { setEqualizer(new.equalizer) }
        if new.volume != old.volume { setVolume(new.volume) }
        setReplayGain(new.replayGain)
        var changed = false
        if availability.skipForwardIntervals != [new.skipForwardInterval]
            || availability.skipBackwardIntervals != [new.skipBackwardInterval]
        {
            availability.skipForwardIntervals = [new.skipForwardInterval]
            availability.skipBackwardIntervals = [new.skipBackwardInterval]
            changed = true
        }
        for name in new.disabled.subtracting(old.disabled) {
            changed = availability.set(name, enabled: false) || changed
        }
        for name in old.disabled.subtracting(new.disabled) {
            changed = availability.set(name, enabled: true) || changed
        }
        if changed { noteChange(.commands) }
        publishChanges()
    }

    /// Arms the timer that publishes the start of the pipeline's `segment` (playing `id`)
    /// when it becomes audible: an item change, or a new pass of the same item (repeat-one),
    /// which restarts the position.
    func scheduleItemChange(_ id: UInt64, segment: Int, after seconds: Double) {
        boundaryTimer.arm(after: max(0, seconds)) { [unowned self] in
            guard state == .playing, let position = engine.currentPosition() else { return }
            // The timer runs on the wall clock, the position on the device's: they differ by
            // milliseconds. Publishing before the engine reached the segment would be undone
            // by `syncWithEngine` (back to the previous item) and the change lost.
            if position.segment < segment {
                return scheduleItemChange(id, segment: segment, after: 0.005)
            }
            if queue.current?.id == id && position.segment == segment {
                noteChange(.position)
            } else {
                sync(toItem: position.itemID)
            }
            refreshUpcoming()
            publishChanges()
        }
    }
}
