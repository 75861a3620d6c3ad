import ControlProtocol
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// What the engine reports, taken into the state: what it is heard playing, a pipeline started
/// or stopped, an item boundary heard, the end of what was decoded, a device failure.
extension PlayerState {
    /// Takes in what the engine is heard playing: the item, the A-B loop's pass, phrase mode's
    /// step. A pipeline that plays the current item whole before its last phrase (its phrases
    /// were found after it started, or repeat-one began it again) starts again where it is
    /// heard, so that phrase mode plays from the phrase heard.
    mutating func observe(_ heard: EnginePosition?, now: Double) -> ChangeSet {
        guard transport == .playing, let heard else { return [] }
        var changes = follow(toItem: heard.itemID)
        guard heard.itemID == queue.current?.id else { return changes }
        let item = heard.itemID
        let loop = abLoop.range(in: item)
        changes.formUnion(changeABLoop { $0.segmentBegan(heard.segment, in: item) })
        hearingObserves(heard, now: now, loop: loop)
        changes.formUnion(phraseHeard(mark: heard.mark, inGap: heard.isGap))
        if start.pipeline == start.runningPipeline && playsWholeBeforeLastPhrase(atFrame: heard.frame, mark: heard.mark)
        {
            restartWhereHeard(fadesIn: false)
        }
        return changes
    }

    /// Pipeline number `pipeline` started at `frame` (the decoder's start, clamped to the item);
    /// `resumed`: it is the one paused in place, going on.
    mutating func engineStarted(pipeline: Int, at frame: Int, resumed: Bool = false) {
        hold(frame)
        changeStart { $0.started(pipeline) }
        hearingRuns(pipeline: pipeline, at: frame, resumed: resumed)
        if let item = queue.current { changeABLoop { $0.pipelineStarted(atFrame: frame, in: item) } }
    }

    /// The running pipeline opened the device: a device tried again is back.
    mutating func deviceOpened() { changeRetry { $0.reset() } }

    /// The running pipeline ended at `position` (a pause's halt, or a restart in place, which
    /// then starts there).
    mutating func engineHalted(at position: EnginePosition?) -> ChangeSet {
        guard let position else { return [] }
        var changes = follow(toItem: position.itemID)
        hearingHalts(at: position)
        holdHalted(at: position.frame)
        if position.itemID == queue.current?.id {
            changes.formUnion(phraseHeard(mark: position.mark, inGap: position.isGap))
        }
        changeStart { $0.place(at: position.frame) }
        return changes
    }

    /// A start failed: an item that cannot be opened pauses. The failure every front end
    /// reports. (A device that cannot be opened is `deviceFailed`, after the reply.)
    mutating func startFailed(_ error: DecoderError) -> (CommandFailure, ChangeSet) {
        let changes = transport == .playing ? setTransport(.paused) : []
        return (CommandFailure(.noSuchContent, "\(queue.current?.path ?? "?"): \(error)"), changes)
    }

    /// The start of the pipeline's `segment` (playing `id`) became audible: an item change,
    /// or a new pass of the same item (repeat-one, an A-B loop), which restarts the position.
    mutating func boundaryHeard(_ id: UInt64, segment: Int, _ heard: EnginePosition, now: Double) -> ChangeSet {
        guard transport == .playing else { return [] }
        var changes: ChangeSet = []
        // The item before played to its end.
        if let previous = queue.current, previous.id != heard.itemID {
            itemFinished(previous.id, now: now)
        }
        if queue.current?.id == id && heard.segment == segment {
            // A gap beginning moves nothing: the position holds through it.
            if !heard.isGap {
                let item = queue.current?.id
                changes.formUnion(ChangeSet.position.union(changeABLoop { $0.segmentBegan(segment, in: item) }))
            }
        } else {
            changes.formUnion(follow(toItem: heard.itemID))
        }
        return changes.union(observe(heard, now: now))
    }

    /// Everything a pipeline decoded was played out (`last`): the next pipeline starts (the
    /// item whose format differs, `next`, or the item after the last one: a repeat's next
    /// pass, items enqueued after the decoder ran out), playback stops there (`single`: the
    /// plan gave the engine nothing after the item), or the queue ends. Consume takes the
    /// item played.
    mutating func pipelineFinished(last: EnginePosition?, next: UInt64?, now: Double) -> ChangeSet {
        let changes = engineHalted(at: last)
        changeStart { $0.stopped() }
        guard transport == .playing else { return changes }
        let finished = queue.current
        if let finished { itemFinished(finished.id, now: now) }
        let end = queue.itemEnd
        guard let moved = next.map({ advance(toItem: $0) }) ?? advance(automatic: true) else {
            return changes.union(playOut()).union(consume(finished))
        }
        let going = end == .stop ? stopAtItemEnd() : startPlaying(at: heldFrame)
        return changes.union(moved).union(consume(finished)).union(going)
    }

    /// The device could not be opened (`opening`) or failed while playing, at `position`:
    /// interrupted, the position kept, the device's error shown (`deviceError`); a device that
    /// comes back by itself is tried again; one that vanished while playing (`ENODEV`: a USB
    /// card unplugged) is a route change as well.
    mutating func deviceFailed(
        _ error: SinkError, at position: EnginePosition?, opening: Bool, device: String, reconnects: Bool,
        now: Double
    ) -> ChangeSet {
        var changes = engineHalted(at: position)
        changeStart { $0.stopped() }
        changes.formUnion(interrupt(because: Self.deviceErrorMessage(error, opening: opening, device: device)))
        if reconnects { changeRetry { $0.arm(now: now) } }
        if error.code == -ENODEV && !opening {
            changes.formUnion(
                routeChanged(RouteChange(reason: .oldDeviceUnavailable, device: device, timestamp: now)))
        }
        return changes
    }

    /// What `deviceError` says: the device, and what failed.
    static func deviceErrorMessage(_ error: SinkError, opening: Bool, device: String) -> String {
        opening ? "cannot open audio device '\(device)': \(error)" : "audio device '\(device)' failed: \(error)"
    }

    /// What the engine reported (`events`, on `device`, which comes back by itself when
    /// `reconnects`), taken in at `moment`: a pipeline played out, the device opened or failed,
    /// a stream's title. The rest is the service's (starts heard, boundaries, log lines).
    mutating func receive(_ events: [EngineEvent], device: String, reconnects: Bool, at moment: Moment) -> ChangeSet {
        let now = moment.now
        var changes: ChangeSet = []
        for event in events {
            switch event {
            case .finished(let last, let next):
                changes.formUnion(pipelineFinished(last: last, next: next, now: now))
            case .deviceOpened:
                deviceOpened()
            case .deviceFailed(let error, let position, let opening):
                changes.formUnion(
                    deviceFailed(
                        error, at: position, opening: opening, device: device, reconnects: reconnects, now: now))
            case .streamTitle(let url, let title):
                changes.formUnion(setStreamTitle(title, for: url, at: moment))
            case .audible, .itemStarted, .itemsCutShort, .itemsSkipped, .xrunsRecovered:
                break
            }
        }
        return changes
    }

    /// The next pipeline cannot start (its item cannot be opened): the queue ends.
    mutating func cannotContinue() -> ChangeSet { playOut() }
}
