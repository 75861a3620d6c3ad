import ControlProtocol
import PlaybackModel
import SystemSupport

/// Chapters: moving between them, listing them, and announcing each boundary as it is heard
/// (one snapshot per chapter change, from a timer armed for the moment the position reaches
/// it; no ticks).
extension PlayerService {
    func nextChapter() -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        let chapters = item.metadata.chapters
        let position = item.metadata.seconds(atFrame: playedFrame())
        guard let index = chapters.index(at: position) else { return noChapters() }
        if position < chapters[index].start { return seek(to: chapters[index].start) }
        guard index + 1 < chapters.count else {
            // From the last chapter, on to the next item (mpv's `add chapter 1` does the same).
            return nextTrack().map { _ in
                .position(state.queue.current.map { $0.metadata.seconds(atFrame: state.heldFrame) } ?? 0)
            }
        }
        return seek(to: chapters[index + 1].start)
    }

    func previousChapter() -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        let chapters = item.metadata.chapters
        let position = item.metadata.seconds(atFrame: playedFrame())
        guard let index = chapters.index(at: position) else { return noChapters() }
        let into = position - chapters[index].start
        if into > CommandCatalog.chapterRestartThreshold || index == 0 {
            return seek(to: into < 0 ? 0 : chapters[index].start)
        }
        return seek(to: chapters[index - 1].start)
    }

    func listChapters() -> CommandResult {
        guard let item = state.queue.current else { return noCurrentItem() }
        return .success(.chapters(item.metadata.chapters))
    }

    func noChapters() -> CommandResult {
        .failure(CommandFailure(.commandDisabled, "the current item has no chapters"))
    }

    /// Arms the announcement of the next chapter boundary for the snapshot just published.
    func followChapters(_ published: NowPlaying) {
        listening.announcedChapter = published.item.map { ($0.id, published.chapter?.number) }
        listening.chapterTimer.cancel()
        guard published.rate > 0, let chapter = published.chapter, chapter.number + 1 < chapter.count,
            let time = published.time(reaching: chapter.end)
        else { return }
        armChapterTimer(after: time - WallClock.now() + Self.boundaryLateness, tries: 0)
    }

    /// The boundary is due: announced when the snapshot shows the new chapter (the timer runs
    /// on the wall clock, the position on the device's; they differ by milliseconds).
    private func armChapterTimer(after seconds: Double, tries: Int) {
        listening.chapterTimer.arm(after: max(0, seconds)) { [unowned self] in
            let shown = view().nowPlaying
            let now = shown.item.map { ($0.id, shown.chapter?.number) }
            if now?.0 == listening.announcedChapter?.item && now?.1 == listening.announcedChapter?.chapter {
                guard tries < 20 else { return }
                return armChapterTimer(after: 0.005, tries: tries + 1)
            }
            note(.chapter)
            publishChanges()
        }
    }

    /// How long after the computed moment a boundary is looked for.
    static var boundaryLateness: Double { 0.002 }
}
