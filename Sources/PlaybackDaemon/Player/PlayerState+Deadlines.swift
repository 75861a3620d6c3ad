import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// Why the state wants to be woken at a moment.
enum StateDeadline: CaseIterable {
    /// The sleep timer's time, or the moment playback reaches its boundary.
    case sleep
    /// The next chapter boundary of the item heard, to be announced when it is heard.
    case chapter
    /// A long item playing saves its bookmark every `bookmarkInterval`.
    case bookmark
    /// A device that comes back by itself is tried again.
    case retry
    /// The hearing under way has been heard long enough to count as a listen (`ListenRule`).
    case listen
}

/// The state's deadlines, computed from it and from the snapshot of what is heard now (its
/// anchor), and what each does when its time comes. They are the daemon's only timers besides
/// the engine driver's (the pause hold, item boundaries): `PlayerService` arms one timer at the
/// earliest.
extension PlayerState {
    /// How often the position of a long item playing is saved.
    static let bookmarkInterval = 5.0
    /// How long after the computed moment of a boundary (a chapter's, a sleep timer's) it is
    /// looked for: the wall clock and the device's run apart by milliseconds.
    static let boundaryLateness = 0.002

    /// When each deadline falls, seen from `shown` at `now`.
    func deadline(_ deadline: StateDeadline, shown: NowPlaying, now: Double) -> Double? {
        switch deadline {
        case .sleep:
            // A boundary's computed moment, looked for a little after (a time, or a boundary
            // passed already, is due as it is).
            guard let due = sleep.due(shown, now: now) else { return nil }
            return sleep.target == nil || due <= now ? due : due + Self.boundaryLateness
        case .chapter:
            // A boundary heard and not announced yet is due now.
            if let item = shown.item, let announced, announced.item == item.id,
                announced.chapter != shown.chapter?.number
            {
                return now
            }
            guard shown.rate > 0, let chapter = shown.chapter, chapter.number + 1 < chapter.count,
                let time = shown.time(reaching: chapter.end)
            else { return nil }
            return time + Self.boundaryLateness
        case .bookmark: return transport == .playing ? bookmarkDue : nil
        case .retry: return transport == .interrupted ? retry.due : nil
        case .listen:
            guard transport == .playing, let under = hearing.current, shown.item?.id == under.item.id,
                let position = under.listenPosition
            else { return nil }
            return shown.time(reaching: position).map { $0 + Self.boundaryLateness }
        }
    }

    /// Keeps the bookmark's schedule: due a while after a long item began playing, none
    /// otherwise.
    mutating func keepBookmarkSchedule(now: Double) {
        guard transport == .playing, let item = queue.current, bookmarks.keepsBookmark(item) else {
            return setBookmarkDue(nil)
        }
        if bookmarkDue == nil { setBookmarkDue(now + Self.bookmarkInterval) }
    }

    /// The time of `deadline` came (`shown`: what is heard now). The changes, and what to say
    /// in the log.
    mutating func reach(_ deadline: StateDeadline, shown: NowPlaying, at moment: Moment) -> (ChangeSet, String?) {
        switch deadline {
        case .sleep:
            var said: String?
            let changes = followingMoves(at: moment) { state in
                let (changes, line) = state.sleepDue(shown, at: moment)
                said = line
                return changes
            }
            return (changes, said)
        case .chapter: return (published(shown), nil)
        case .bookmark:
            setBookmarkDue(moment.now + Self.bookmarkInterval)
            bookmarkCurrentItem(at: moment)
            return ([], nil)
        case .retry:
            changeRetry { $0.tryNow() }
            return (startPlaying(at: heldFrame), nil)
        case .listen:
            guard let heard = moment.heard, let item = queue.current, item.id == heard.itemID else { return ([], nil) }
            changeHearing { $0.listens(upTo: item.metadata.seconds(atFrame: heard.frame)) }
            return ([], nil)
        }
    }

    /// The sleep timer's time came: pause where playback is (after the fade, silent), or,
    /// when already paused, just end the timer. A boundary not reached yet by the device
    /// (its clock ran behind the wall clock) waits: its deadline, computed again from what is
    /// heard, is later. At the end of the item or chapter the position is the boundary (the
    /// next item, from its start, when playback passed into it).
    private mutating func sleepDue(_ shown: NowPlaying, at moment: Moment) -> (ChangeSet, String?) {
        guard let timer = sleep.timer else { return ([], nil) }
        guard let target = sleep.target else {
            let changes = transport == .playing ? setTransport(.paused) : []
            let said = transport == .paused && !changes.isEmpty ? "the sleep timer paused playback" : nil
            return (changes.union(changeSleep { $0.end() }), said)
        }
        guard transport == .playing else { return ([], nil) }
        if let heard = moment.heard, heard.itemID == target.item, let item = queue.current, item.id == target.item,
            item.metadata.frame(at: target.seconds) > heard.frame + item.metadata.sampleRate / 100
        {
            return ([], nil)
        }
        var changes = setTransport(.paused)
        if let item = queue.current {
            changes.formUnion(
                moveHeld(to: item.id == target.item ? item.metadata.frame(at: target.seconds) : startFrame()))
        }
        let said = "the sleep timer paused playback at the end of the \(timer == .endOfChapter ? "chapter" : "item")"
        return (changes.union(changeSleep { $0.end() }), said)
    }
}
