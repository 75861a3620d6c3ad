import ControlProtocol
import PlaybackModel

/// The sleep timer as a value: after a time, or at the end of the item or chapter, playback
/// fades out (the engine's sleep fade, sample-accurate, through the sound chain) and pauses.
/// Its time runs on while paused, as a kitchen timer's (and iOS's Clock timer's) does: set for
/// 30 minutes, it pauses 30 minutes later, whatever happened between; one that comes due while
/// paused is simply over. A boundary is aimed where playback is when the timer is set or a
/// command moves it (`aim`); playback passing on into the next item or chapter does not move
/// it. It is not saved across restarts.
struct SleepTimerState: Equatable {
    private(set) var timer: SleepTimer?
    /// The boundary a boundary timer waits for.
    private(set) var target: SleepTarget?
    /// The fade of the timer set: never longer than the timer.
    private(set) var fadeLength = 0.0
    /// The configuration's fade (`sleep-fade`).
    private(set) var fadeSeconds: Double

    init(fadeSeconds: Double) { self.fadeSeconds = fadeSeconds }

    /// Sets the timer for `item`, playing at `seconds` into it at `now`.
    mutating func set(_ request: SleepRequest, item: QueueItem, at seconds: Double, now: Double) -> Result<
        ChangeSet, CommandFailure
    > {
        let new: SleepTimer
        switch request {
        case .seconds(let delay):
            new = .at(now + delay)
            fadeLength = min(fadeSeconds, delay)
        case .boundary(let boundary):
            if boundary == .endOfChapter && item.metadata.chapters.isEmpty {
                return .failure(.noChapters)
            }
            new = SleepTimer(boundary)
            fadeLength = fadeSeconds
        }
        let changes: ChangeSet = new == timer ? [] : .sleepTimer
        timer = new
        aim(item: item, at: seconds)
        return .success(changes)
    }

    /// Aims a boundary timer at the end of `item` (or of its chapter at `seconds`): where
    /// playback is now.
    mutating func aim(item: QueueItem?, at seconds: Double) {
        guard let timer, timer.boundary != nil, let item else { return target = nil }
        let end =
            timer == .endOfItem
            ? item.metadata.duration
            : CurrentChapter(item.metadata.chapters, at: seconds)?.end ?? item.metadata.duration
        target = SleepTarget(item: item.id, seconds: end)
    }

    mutating func end() -> ChangeSet {
        guard timer != nil else { return [] }
        timer = nil
        target = nil
        return .sleepTimer
    }

    /// A new `sleep-fade` (a reload): timers set from now on take it.
    mutating func setFadeSeconds(_ seconds: Double) { fadeSeconds = seconds }

    /// When it comes due, seen from `snapshot` (the published anchor): its time; for a
    /// boundary, when the position reaches it (now when playback passed into another item),
    /// only while playing. Nil without a timer, or a boundary while not playing.
    func due(_ snapshot: NowPlaying, now: Double) -> Double? {
        switch timer {
        case nil: return nil
        case .at(let time): return time
        case .endOfItem, .endOfChapter:
            guard let target, snapshot.state == .playing, snapshot.rate > 0 else { return nil }
            guard snapshot.item?.id == target.item else { return now }
            return snapshot.time(reaching: target.seconds)
        }
    }

    /// The fade that ends at the timer's moment, seen from `snapshot`, while playing.
    func fade(_ snapshot: NowPlaying, now: Double) -> SleepFade? {
        guard snapshot.state == .playing, snapshot.rate > 0, let due = due(snapshot, now: now) else { return nil }
        let length = min(fadeLength, max(0, due - now))
        return SleepFade(start: due - length, length: length, target: target, time: target == nil ? due : nil)
    }
}

/// The boundary a sleep timer waits for: a position in an item.
struct SleepTarget: Equatable {
    var item: UInt64
    var seconds: Double
}

/// The sleep timer's fade, as the engine plays it: from `start` (seconds since the epoch) over
/// `length` seconds, then silence. It is set once for the boundary or time it ends at
/// (`target`, `time`) in each pipeline: its moment moves with each published anchor by a few
/// milliseconds, which is no reason to set it again.
struct SleepFade: Equatable {
    var start: Double
    var length: Double
    var target: SleepTarget?
    var time: Double?

    /// Whether it ends where `other` ends (the same boundary or time).
    func isSame(as other: SleepFade?) -> Bool { other.map { $0.target == target && $0.time == time } ?? false }
}
