import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The one owner of the engine: nothing else calls it. It compares the state's plan
/// (`EnginePlan`) with what the engine does and makes the difference, one step at a time
/// (`apply`), reporting what the state must take in (a start's frame, a halt's position, a
/// failure); it reads what the engine hears for the state and the snapshot; and it keeps the
/// engine's own deadlines: the release of what a pause holds, and each item boundary, to be
/// announced when it is heard. It knows nothing of the queue. Event loop only.
final class EngineDriver {
    /// What `apply` did that the state must take in.
    enum Report {
        /// Pipeline number `pipeline` started at `frame`.
        /// `resumed`: the pipeline paused in place went on (its segments are numbered on).
        case started(pipeline: Int, frame: Int, resumed: Bool)
        /// The item could not be opened (a device that cannot be is `deviceFailed`, later).
        case startFailed(DecoderError)
        /// The running pipeline stopped at this position (nil: it had nothing to tell).
        case halted(EnginePosition?)
        /// The running pipeline already decodes an item the new list no longer plays next: only
        /// a restart where it is heard honours the change.
        case upcomingConflicts
    }

    /// What the engine heard and measured, for a snapshot.
    struct Observation {
        var heard: EnginePosition?
        /// The output thread's last measurement and its age in seconds.
        var measured: (position: EnginePosition, age: Double)?
        var isAudible: Bool
        var runningRate: Double
    }

    private let engine: PlaybackEngine
    /// How long a pause holds the device (and the item's file) open.
    var pauseHoldSeconds: Double
    private let log: DaemonLog
    /// The number of the pipeline the engine runs (`EnginePlan.Start.pipeline`).
    private var runningPipeline: Int?
    private var appliedUpcoming: [EngineItem] = []
    /// The sleep fade given to the engine, and the pipeline it was given to.
    private var appliedFade: (fade: SleepFade, pipeline: Int)?
    /// When what a pause holds is released (the device, then the file); nil when nothing waits.
    private var holdRelease: (due: Double, deviceOnly: Bool)?
    /// Boundaries written and not yet heard, in order: item, segment, when audible (wall clock).
    private var pendingBoundaries: [(id: UInt64, segment: Int, due: Double)] = []
    /// Whether the missing real-time priority was logged (it is said once).
    private var hasReportedNoRealtime = false

    init(engine: PlaybackEngine, pauseHoldSeconds: Double, log: DaemonLog) {
        self.engine = engine
        self.pauseHoldSeconds = pauseHoldSeconds
        self.log = log
    }

    /// The engine's event descriptor, for the event loop.
    var events: EventSignal { engine.events }
    var deviceName: String { engine.deviceName }
    /// Whether the device comes back by itself after a failure (a Snapcast stream).
    var deviceReconnects: Bool { engine.deviceReconnects }

    /// What the engine hears now.
    func observe() -> Observation {
        Observation(
            heard: engine.currentPosition(), measured: engine.measuredPosition(), isAudible: engine.isAudible,
            runningRate: engine.runningRate)
    }

    /// Whether a pipeline runs.
    var isRunning: Bool { engine.isRunning }

    /// Whether the device has started playing what the running pipeline wrote.
    var isRunningAndSilent: Bool { engine.isRunning && !engine.isAudible }

    /// The output thread's last measurement's age: how long the output has not advanced.
    var outputAge: Double? { engine.measuredPosition()?.age }

    /// What happened in the engine.
    func takeEvents() -> [EngineEvent] { engine.takeEvents() }

    /// The device the running pipeline opened, as it turned out to be.
    var openDevice: OpenDevice {
        OpenDevice(name: engine.deviceName, isServerStream: engine.isServerStream, hardware: engine.hardwareDevice)
    }

    // MARK: Reconciling

    /// Makes one step towards `plan` (the sound and the fade at once, then what plays):
    /// what the state must take in, or nil when the engine does what the plan says.
    func apply(_ plan: EnginePlan, heard: EnginePosition?, now: Double) -> Report? {
        engine.setSound(plan.sound)
        switch plan.output {
        case .released:
            pendingBoundaries.removeAll()
            holdRelease = nil
            runningPipeline = nil
            if engine.isRunning || engine.isDeviceOpen || engine.holdsDecoder { engine.releaseAll() }
            return nil
        case .held(let keepsDevice):
            pendingBoundaries.removeAll()
            runningPipeline = nil
            if engine.isRunning {
                // A device kept through the pause keeps the pipeline too: `play` goes on from
                // what the device and the ring hold.
                let position = keepsDevice ? engine.pause() : engine.halt()
                armHoldRelease(keepingDevice: keepsDevice, now: now)
                return .halted(position)
            }
            if holdRelease == nil && (engine.isDeviceOpen || engine.holdsDecoder) {
                armHoldRelease(keepingDevice: keepsDevice, now: now)
            }
            return nil
        case .playing(let start):
            holdRelease = nil
            if start.pipeline != runningPipeline || !engine.isRunning { return begin(start) }
            // Heard already in an item the state has not reached yet (its start is an event
            // still to take): the list is from the state's item on, and would conflict with
            // what the decoder took. It is handed over once the state follows, at that event.
            if start.upcoming != appliedUpcoming, let heard,
                heard.itemID == start.current?.id || !start.upcoming.contains(where: { $0.id == heard.itemID })
            {
                appliedUpcoming = start.upcoming
                if engine.setUpcoming(start.upcoming, afterSegment: heard.segment) == .conflicts {
                    return .upcomingConflicts
                }
            }
            applyFade(plan.sleepFade, now: now)
            return nil
        }
    }

    /// Whether a new pipeline beginning with item `id` opens its file, which can fail
    /// (`Report.startFailed`): unless a pause kept its decoder (a live stream connects anew).
    func opensItem(_ id: UInt64, connectsAnew: Bool) -> Bool {
        connectsAnew || !engine.holdsDecoder(of: id)
    }

    /// Starts `start`'s pipeline, or, for a restart in place, first ends the running one.
    private func begin(_ start: EnginePlan.Start) -> Report {
        pendingBoundaries.removeAll()
        guard let frame = start.frame, let current = start.current else {
            let position = engine.isRunning ? (start.fadesIn ? engine.splice() : engine.halt()) : nil
            runningPipeline = nil
            return .halted(position)
        }
        if start.connectsAnew { engine.forgetParkedDecoder() }
        engine.playbackRate = start.rate
        do throws(DecoderError) {
            let started = try engine.start(
                current, atFrame: frame, upcoming: start.upcoming, fadingIn: start.fadesIn,
                fadingFrom: start.fadingFrom)
            runningPipeline = start.pipeline
            appliedUpcoming = start.upcoming
            appliedFade = nil
            noteRealtimePriority()
            return .started(pipeline: start.pipeline, frame: started, resumed: engine.lastStartResumed)
        } catch {
            runningPipeline = nil
            return .startFailed(error)
        }
    }

    /// Gives the running pipeline its sleep fade, once for each boundary or time it ends at.
    private func applyFade(_ fade: SleepFade?, now: Double) {
        guard let fade else {
            if appliedFade != nil { engine.cancelSleepFade() }
            appliedFade = nil
            return
        }
        if let applied = appliedFade, applied.pipeline == engine.pipelineGeneration, fade.isSame(as: applied.fade) {
            return
        }
        appliedFade = (fade, engine.pipelineGeneration)
        engine.fadeForSleep(startingIn: fade.start - now, over: fade.length)
    }

    // MARK: The engine's deadlines

    /// The earliest of the engine's deadlines.
    var nextDeadline: Double? {
        [holdRelease?.due, pendingBoundaries.first?.due].compactMap { $0 }.min()
    }

    /// The output thread began writing `id` as the pipeline's `segment`, audible `seconds`
    /// from now: an item change, or a new pass of the same item (repeat-one, an A-B loop).
    /// Boundaries wait in order: items (or passes) shorter than the device's buffer have
    /// several between the one written and the one heard.
    func scheduleBoundary(_ id: UInt64, segment: Int, after seconds: Double, now: Double) {
        pendingBoundaries.append((id, segment, now + max(0, seconds)))
    }

    /// Handles the deadlines due at `now`: releases what a pause held, and reports each
    /// boundary heard to `heard` (those heard by the same moment as one: the latest). A
    /// boundary the device's clock has not reached yet (it runs a few milliseconds behind the
    /// wall clock's estimate) gets the time the engine says is left.
    func reachDeadlines(now: Double, heard report: (UInt64, Int, EnginePosition) -> Void) {
        if let release = holdRelease, release.due <= now { releaseHeld(deviceOnly: release.deviceOnly, now: now) }
        guard let first = pendingBoundaries.first, first.due <= now else { return }
        guard let position = engine.currentPosition() else { return pendingBoundaries.removeAll() }
        if position.segment < first.segment {
            pendingBoundaries[0].due = now + max(0.001, engine.secondsUntilHeard(segment: first.segment) ?? 0.005)
            return
        }
        let heard = pendingBoundaries.prefix { $0.segment <= position.segment }
        let latest = heard.last!
        pendingBoundaries.removeFirst(heard.count)
        report(latest.id, latest.segment, position)
    }

    /// Arms the release of what a pause holds. After the hold time the device and the item's
    /// file are both closed (`play` then opens the file again and seeks). A device not to be
    /// kept, or a stream through ALSA's plugin for a sound server, which costs wake-ups while
    /// held and reopens in under a millisecond (`AudioSink.closesAtPause`), is closed at once
    /// (on the loop's next turn, after the pause has taken its position), the file after the
    /// hold time.
    private func armHoldRelease(keepingDevice: Bool, now: Double) {
        let closesNow = !keepingDevice || engine.closesDeviceAtPause
        holdRelease = closesNow ? (now, true) : (now + pauseHoldSeconds, false)
    }

    private func releaseHeld(deviceOnly: Bool, now: Double) {
        holdRelease = nil
        if deviceOnly {
            if engine.isDeviceOpen {
                engine.releaseDevice()
                log.log(.debug, "released \(engine.deviceName), a sound server's stream, at the pause")
            }
            holdRelease = (now + pauseHoldSeconds, false)
            return
        }
        guard engine.isDeviceOpen || engine.holdsDecoder else { return }
        let what = engine.isDeviceOpen ? "\(engine.deviceName) and the item's file" : "the item's file"
        engine.releaseAll()
        log.info("released \(what) after \(pauseHoldSeconds) s paused")
    }

    // MARK: Exit

    /// The exit: the device plays out what it holds and fades; the position heard last.
    func fadeOut() -> EnginePosition? {
        runningPipeline = nil
        return engine.fadeOut()
    }

    /// Closes everything the engine holds (the last thing before the process exits), and waits
    /// at most `timeout` seconds for the device to be closed; whether it was.
    func releaseAll(waiting timeout: Double) -> Bool {
        engine.releaseAll()
        return engine.waitForDevice(timeout: timeout)
    }

    /// Says once if the output thread could not get real-time scheduling; playback goes on.
    private func noteRealtimePriority() {
        guard !engine.isRealtime, !hasReportedNoRealtime else { return }
        hasReportedNoRealtime = true
        log.notice(
            "the output thread runs without SCHED_FIFO (refused, or realtime = false; raise LimitRTPRIO or RLIMIT_RTPRIO); playing on"
        )
    }
}

/// The output device as a pipeline opened it: what the route watch needs to choose a watcher.
struct OpenDevice: Equatable {
    var name: String
    /// A sound server's stream (`AudioSink.isServerStream`).
    var isServerStream: Bool
    /// The card behind a card's own PCM.
    var hardware: HardwareDevice?
}
