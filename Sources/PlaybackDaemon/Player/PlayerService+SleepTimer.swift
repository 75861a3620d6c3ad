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
            sleepFadeLength = min(sleepFadeSeconds, seconds)
        case .boundary(let boundary):
            if boundary == .endOfChapter && item.metadata.chapters.isEmpty {
                return .failure(CommandFailure(.commandFailed, "the current item has no chapters to end"))
            }
            timer = SleepTimer(boundary)
            sleepFadeLength = sleepFadeSeconds
        }
        engine.cancelSleepFade()
        armedFade = nil
        note(state.setSleepTimer(timer))
        return .success(.done)
    }

    func cancelSleepTimer() -> CommandResult {
        endSleepTimer()
        return .success(.done)
    }

    /// Clears the timer, its fade and its alarm.
    func endSleepTimer() {
        sleepAlarm.cancel()
        armedFade = nil
        engine.cancelSleepFade()
        note(state.setSleepTimer(nil))
    }

    /// Arms the fade and the pause for the snapshot just published: at the timer's time, or
    /// when the position reaches the boundary. The engine's fade is set once per pipeline and
    /// target (it counts the pipeline's samples).
    func followSleepTimer(_ published: NowPlaying) {
        guard let timer = published.sleepTimer else { return sleepAlarm.cancel() }
        let now = WallClock.now()
        let due: Double?
        var target: (item: UInt64, seconds: Double)?
        switch timer {
        case .at(let time): due = time
        case .endOfItem, .endOfChapter:
            guard let item = published.item else { return sleepAlarm.cancel() }
            let end = timer == .endOfItem ? item.metadata.duration : (published.chapter?.end ?? item.metadata.duration)
            target = (item.id, end)
            due = published.time(reaching: end)
        }
        guard let due else { return sleepAlarm.cancel() }
        let remaining = due - now
        if published.state == .playing && published.rate > 0 {
            let key = FadeKey(pipeline: engine.pipelineGeneration, item: target?.item, seconds: target?.seconds ?? due)
            if armedFade != key {
                armedFade = key
                let fade = min(sleepFadeLength, max(0, remaining))
                engine.fadeForSleep(startingIn: remaining - fade, over: fade)
            }
        }
        guard case .at = timer else {
            guard published.state == .playing, published.rate > 0 else { return sleepAlarm.cancel() }
            return sleepAlarm.arm(after: max(0, remaining) + Self.sleepLateness) { [unowned self] in
                sleepAtBoundary(target!)
            }
        }
        sleepAlarm.arm(after: max(0, remaining)) { [unowned self] in sleepNow() }
    }

    /// The timer's time has come: pause where playback is (after the fade, silent), or, when
    /// already paused, just end the timer.
    private func sleepNow() {
        syncWithEngine()
        if state.transport == .playing { _ = pause() }
        log.info("the sleep timer paused playback")
        endSleepTimer()
        publishChanges()
    }

    /// Playback reached the end of the item or chapter the timer waited for: pause there, the
    /// next item current at its start or the position at the chapter's end.
    private func sleepAtBoundary(_ target: (item: UInt64, seconds: Double)) {
        syncWithEngine()
        guard state.transport == .playing else { return }
        if let heard = engine.currentPosition(), heard.itemID == target.item,
            let item = state.queue.current, item.id == target.item,
            item.metadata.frame(at: target.seconds) > heard.frame + item.metadata.sampleRate / 100
        {
            // Not there yet (the wall clock ran ahead of the device's): look again shortly.
            return sleepAlarm.arm(after: 0.01) { [unowned self] in sleepAtBoundary(target) }
        }
        _ = pause()
        if let item = state.queue.current {
            if item.id == target.item {
                note(state.moveHeld(to: item.metadata.frame(at: target.seconds)))
            } else {
                note(state.moveHeld(to: state.startFrame()))
            }
        }
        log.info("the sleep timer paused playback at the end of the \(state.sleepTimer == .endOfChapter ? "chapter" : "item")")
        endSleepTimer()
        publishChanges()
    }

    /// How long after the boundary's computed moment the pause is made (the fade has ended
    /// there: this is silence).
    static var sleepLateness: Double { 0.02 }
}

/// What a sleep fade was set for: the pipeline whose samples it counts and its target.
struct FadeKey: Equatable {
    var pipeline: Int
    var item: UInt64?
    var seconds: Double
}
