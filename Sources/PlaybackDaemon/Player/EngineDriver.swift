import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The engine's side of the player: it alone starts, halts and restarts pipelines and owns the
/// timers that follow the device: the release of what a pause holds, and the item boundary
/// announced when it becomes audible. It knows nothing of the queue: `PlayerService` hands it
/// the items to play and applies what it reports to the state. Event loop only.
final class EngineDriver {
    let engine: PlaybackEngine
    /// How long a pause holds the device (and the item's file) open.
    var pauseHoldSeconds: Double
    private let log: DaemonLog
    private let holdTimer: OneShotTimer
    private let boundaryTimer: OneShotTimer
    /// Boundaries written and not yet heard, in order: item, segment, when audible (wall clock).
    private var pendingBoundaries: [(id: UInt64, segment: Int, due: Double)] = []
    /// Whether the missing real-time priority was logged (it is said once).
    private var hasReportedNoRealtime = false
    /// Called when the boundary `scheduleBoundary` announced is heard: the pipeline's segment
    /// and the position heard (set by the service).
    var onBoundaryHeard: (_ itemID: UInt64, _ segment: Int, _ heard: EnginePosition) -> Void = { _, _, _ in }
    /// Called when a pipeline has started with the device open: what the device turned out to
    /// be (set by the service, which publishes it for the route watch).
    var onDeviceOpened: (OpenDevice) -> Void = { _ in }

    init(engine: PlaybackEngine, pauseHoldSeconds: Double, loop: EventLoop, log: DaemonLog) {
        self.engine = engine
        self.pauseHoldSeconds = pauseHoldSeconds
        self.log = log
        holdTimer = OneShotTimer(loop: loop)
        boundaryTimer = OneShotTimer(loop: loop)
    }

    /// Starts `items` at `frame` of the first at `rate`; returns the frame decoding starts at.
    /// `fadingIn`: see `PlaybackEngine.start`.
    func start(
        _ items: (current: EngineItem, upcoming: [EngineItem]), atFrame frame: Int, rate: Double, fadingIn: Bool
    ) throws(EngineError) -> Int {
        cancelBoundaries()
        engine.playbackRate = rate
        let started = try engine.start(items.current, atFrame: frame, upcoming: items.upcoming, fadingIn: fadingIn)
        noteRealtimePriority()
        if engine.isDeviceOpen {
            onDeviceOpened(
                OpenDevice(
                    name: engine.deviceName, isServerStream: engine.isServerStream,
                    hardware: engine.hardwareDevice))
        }
        return started
    }

    /// Follows the transport state: a pause or an interruption arms the release of what it
    /// holds; playing cancels it, and stopping leaves nothing to release.
    func transportChanged(to state: PlaybackState) {
        switch state {
        case .playing: holdTimer.cancel()
        case .paused, .interrupted:
            cancelBoundaries()
            armHoldTimer()
        case .stopped:
            cancelBoundaries()
            holdTimer.cancel()
        }
    }

    /// Arms the release of what a pause holds. After the hold time the device and the item's
    /// file are both closed (`play` then opens the file again and seeks). A sound server's
    /// stream, which costs wake-ups while held and reopens in under a millisecond, is closed at
    /// once (on the loop's next turn, after the pause has taken its position), the file after
    /// the hold time.
    private func armHoldTimer() {
        guard engine.isServerStream else {
            return holdTimer.arm(after: pauseHoldSeconds) { [unowned self] in releaseHeld() }
        }
        holdTimer.arm(after: 0) { [unowned self] in
            if engine.isDeviceOpen {
                engine.releaseDevice()
                log.log(.debug, "released \(engine.deviceName), a sound server's stream, at the pause")
            }
            holdTimer.arm(after: pauseHoldSeconds) { [unowned self] in releaseHeld() }
        }
    }

    /// The end of the hold time: nothing stays open while paused any longer.
    private func releaseHeld() {
        guard engine.isDeviceOpen || engine.holdsDecoder else { return }
        let what = engine.isDeviceOpen ? "\(engine.deviceName) and the item's file" : "the item's file"
        engine.releaseAll()
        log.info("released \(what) after \(pauseHoldSeconds) s paused")
    }

    /// Arms the timer that reports the start of the pipeline's `segment` (playing `id`) when
    /// it becomes audible: an item change, or a new pass of the same item (repeat-one, an A-B
    /// loop). Boundaries wait in order: items (or passes) shorter than the device's buffer
    /// have several between the one written and the one heard, and each is reported once it
    /// is heard (those heard by the same moment, as one: the latest).
    func scheduleBoundary(_ id: UInt64, segment: Int, after seconds: Double) {
        pendingBoundaries.append((id, segment, WallClock.now() + max(0, seconds)))
        if pendingBoundaries.count == 1 { armNextBoundary() }
    }

    /// Forgets the boundaries not heard yet (the pipeline they belong to is gone).
    private func cancelBoundaries() {
        boundaryTimer.cancel()
        pendingBoundaries.removeAll()
    }

    private func armNextBoundary() {
        guard let first = pendingBoundaries.first else { return }
        boundaryTimer.arm(after: max(0, first.due - WallClock.now())) { [unowned self] in
            guard let position = engine.currentPosition() else { return pendingBoundaries.removeAll() }
            // The timer runs on the wall clock, the position on the device's: they differ by
            // milliseconds. Reporting before the engine reached the segment would be undone by
            // the next sync with the engine (back to the previous item), and the change lost.
            if position.segment < first.segment {
                pendingBoundaries[0].due = WallClock.now() + 0.005
                return armNextBoundary()
            }
            let heard = pendingBoundaries.prefix { $0.segment <= position.segment }
            let latest = heard.last!
            pendingBoundaries.removeFirst(heard.count)
            onBoundaryHeard(latest.id, latest.segment, position)
            armNextBoundary()
        }
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
