/// The event loop's side of long listening, owned by `PlayerService`: the bookmark store and
/// the timers that follow the position (the next chapter's announcement, a long item's
/// periodic bookmark, the sleep timer's alarm), with what they were last armed for. Event loop
/// only.
final class ListeningTimers {
    /// The bookmarks of long items.
    let bookmarks: BookmarkStore
    /// Saves the bookmark of a long item while it plays.
    let bookmarkTimer: OneShotTimer
    /// Announces the next chapter boundary.
    let chapterTimer: OneShotTimer
    /// The item and chapter the last published snapshot showed.
    var announcedChapter: (item: UInt64, chapter: Int?)?
    /// Pauses when the sleep timer comes due.
    let sleepAlarm: OneShotTimer
    /// The boundary a boundary sleep timer waits for.
    var sleepTarget: SleepTarget?
    /// The sleep fade the engine was given, and for what.
    var armedFade: FadeKey?
    /// The sleep timer's fade (`sleep-fade`), and the length of the one set (never longer
    /// than the timer).
    var sleepFadeSeconds: Double
    var sleepFadeLength = 0.0

    init(bookmarks: BookmarkStore, sleepFadeSeconds: Double, loop: EventLoop) {
        self.bookmarks = bookmarks
        self.sleepFadeSeconds = sleepFadeSeconds
        bookmarkTimer = OneShotTimer(loop: loop, accuracy: 0.25)
        chapterTimer = OneShotTimer(loop: loop)
        sleepAlarm = OneShotTimer(loop: loop)
    }
}

/// The boundary a sleep timer waits for: a position in an item.
struct SleepTarget: Equatable {
    var item: UInt64
    var seconds: Double
}

/// What a sleep fade was set for: the pipeline whose samples it counts, and the boundary or
/// the time it ends at.
struct FadeKey: Equatable {
    var pipeline: Int
    var target: SleepTarget?
    var due: Double
}
