import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The sleep timer: after a time, or at the end of the item or chapter, playback fades out
/// (`PlaybackEngine.fadeForSleep`: sample-accurate, through the sound chain) and pauses. Its
/// time runs on while paused, as a kitchen timer's (and iOS's Clock timer's) does: set for
/// 30 minutes, it pauses 30 minutes later, whatever happened between; one that comes due while
/// paused is simply over. A boundary waits for playback to reach it. It is not saved across
/// restarts.
extension PlayerService {
    func setSleepTimer(_ request: SleepRequest) -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        let timer: SleepTimer
        switch request {
        case .seconds(let seconds):
            timer = .at(WallClock.now() + seconds)
            listening.sleepFadeLength = min(listening.sleepFadeSeconds, seconds)
        case .boundary(let boundary):
            if boundary == .endOfChapter && item.metadata.chapters.isEmpty {
                return .failure(CommandFailure(.commandFailed, "the current item has no chapters to end"))
            }
            timer = SleepTimer(boundary)
            listening.sleepFadeLength = listening.sleepFadeSeconds
        }
        engine.cancelSleepFade()
        listening.armedFade = nil
        note(state.setSleepTimer(timer))
        aimSleepTimer()
        return .success(.done)
    }

    /// Commands that move playback to another item or position (a boundary sleep timer then
    /// waits for the end of where playback is).
    static func movesPlayback(_ command: Command) -> Bool {
        switch command {
        case .skipForward, .skipBackward, .changePlaybackPosition, .previousChapter: true
        default: mayLeaveItem(command)
        }
    }

    func cancelSleepTimer() -> CommandResult {
        endSleepTimer()
        return .success(.done)
    }

    /// Clears the timer, its fade and its alarm.
    func endSleepTimer() {
        listening.sleepAlarm.cancel()
        listening.armedFade = nil
        listening.sleepTarget = nil
        engine.cancelSleepFade()
        note(state.setSleepTimer(nil))
    }

    /// Where a boundary timer waits: the end of the item playing, or of its chapter, as
    /// they are when it is set or when a command moves playback (a skip, a seek). Playback
    /// passing on into the next item or chapter does not move it.
    func aimSleepTimer() {
        guard let timer = state.sleepTimer, timer.boundary != nil, let item = state.queue.current else {
            return listening.sleepTarget = nil
        }
        let position = item.metadata.seconds(atFrame: playedFrame())
        let end =
            timer == .endOfItem
            ? item.metadata.duration
            : CurrentChapter(item.metadata.chapters, at: position)?.end ?? item.metadata.duration
        listening.sleepTarget = SleepTarget(item: item.id, seconds: end)
        listening.armedFade = nil
    }

    /// Arms the fade and the pause for the snapshot just published: at the timer's time, or
    /// when the position reaches the boundary. The engine's fade is set once per pipeline and
    /// target (it counts the pipeline's samples).
    func followSleepTimer(_ published: NowPlaying) {
        guard let timer = published.sleepTimer else { return listening.sleepAlarm.cancel() }
        let now = WallClock.now()
        let due: Double
        switch timer {
        case .at(let time): due = time
        case .endOfItem, .endOfChapter:
            guard let target = listening.sleepTarget, published.state == .playing, published.rate > 0 else {
                return listening.sleepAlarm.cancel()
            }
            guard published.item?.id == target.item, let reaching = published.time(reaching: target.seconds) else {
                // Playback has passed the boundary into the next item: pause now.
                return listening.sleepAlarm.arm(after: 0) { [unowned self] in sleepAtBoundary(target) }
            }
            due = reaching
        }
        let remaining = due - now
        if published.state == .playing && published.rate > 0 {
            let key = FadeKey(
                pipeline: engine.pipelineGeneration, target: listening.sleepTarget,
                due: listening.sleepTarget == nil ? due : 0)
            if listening.armedFade != key {
                listening.armedFade = key
                let fade = min(listening.sleepFadeLength, max(0, remaining))
                engine.fadeForSleep(startingIn: remaining - fade, over: fade)
            }
        }
        if let target = listening.sleepTarget {
            listening.sleepAlarm.arm(after: max(0, remaining) + Self.sleepLateness) { [unowned self] in
                sleepAtBoundary(target)
            }
        } else {
            listening.sleepAlarm.arm(after: max(0, remaining)) { [unowned self] in sleepNow() }
        }
    }

    /// The timer's time has come: pause where playback is (after the fade, silent), or, when
    /// already paused, just end the timer.
    private func sleepNow() {
        syncWithEngine()
        if state.transport == .playing {
            _ = pause()
            log.info("the sleep timer paused playback")
        }
        endSleepTimer()
        publishChanges()
    }

    /// Playback reached the end of the item or chapter the timer waited for: pause there, the
    /// next item current at its start or the position at the chapter's end.
    private func sleepAtBoundary(_ target: SleepTarget) {
        syncWithEngine()
        guard state.transport == .playing else { return }
        if let heard = engine.currentPosition(), heard.itemID == target.item,
            let item = state.queue.current, item.id == target.item,
            item.metadata.frame(at: target.seconds) > heard.frame + item.metadata.sampleRate / 100
        {
            // Not there yet (the wall clock ran ahead of the device's): look again shortly.
            return listening.sleepAlarm.arm(after: 0.01) { [unowned self] in sleepAtBoundary(target) }
        }
        _ = pause()
        if let item = state.queue.current {
            if item.id == target.item {
                note(state.moveHeld(to: item.metadata.frame(at: target.seconds)))
            } else {
                note(state.moveHeld(to: state.startFrame()))
            }
        }
        log.info(
            "the sleep timer paused playback at the end of the \(state.sleepTimer == .endOfChapter ? "chapter" : "item")"
        )
        endSleepTimer()
        publishChanges()
    }

    /// How long after the boundary's computed moment the pause is made (the fade has ended
    /// there: this is silence).
    static var sleepLateness: Double { 0.02 }
}
