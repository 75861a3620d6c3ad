import ControlProtocol
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The listening features' rules on the state value alone (`StateFixture`): chapters, the sleep
/// timer, bookmarks and phrase moves, each asserting what subscribers are told (the
/// `ChangeSet`) and what the engine is asked to play (the plan).
@Suite struct FeatureRulesTests {
    static let chapters = [
        Chapter(start: 0, end: 100, title: "One"), Chapter(start: 100, end: 200, title: "Two"),
        Chapter(start: 200, end: 1200, title: "Three"),
    ]

    // MARK: Chapters

    @Test("nextChapter and previousChapter seek to chapter starts; the plan starts the pipeline there")
    func chapterMoves() throws {
        var world = StateFixture(chapters: Self.chapters)
        world.play()
        let (result, changes) = world.perform(.nextChapter, heard: 50)
        #expect(result == .success(.position(100)))
        #expect(changes.contains(.position) && world.bookmark == 100)
        let start = try #require(world.plannedStart())
        #expect(start.frame == StateFixture.frame(100) && start.current?.id == 1)
        world.started()
        // 3 s or less into a chapter goes to the one before; later, to its own start.
        #expect(world.perform(.previousChapter, heard: 102).0 == .success(.position(0)))
        world.started()
        #expect(world.perform(.previousChapter, heard: 150).0 == .success(.position(100)))
        world.started()
        // From the last chapter, on to the next item.
        let (last, moved) = world.perform(.nextChapter, heard: 300)
        #expect(last == .success(.position(0)) && moved.contains(.item) && world.state.queue.current?.id == 2)
        #expect(world.plannedStart()?.current?.id == 2)
    }

    @Test("a chapter boundary is due when heard, announced once with .chapter; none without chapters")
    func chapterAnnouncement() {
        var world = StateFixture(chapters: Self.chapters)
        world.play()
        _ = world.state.published(world.shown(at: 95))
        let due = world.deadline(.chapter, heard: 95)
        #expect(due == world.now + 5 + PlayerState.boundaryLateness)
        // Heard past the boundary: due now, announced once.
        #expect(world.deadline(.chapter, heard: 100.01) == world.now)
        #expect(world.reach(.chapter, heard: 100.01) == .chapter)
        #expect(world.reach(.chapter, heard: 100.02) == [])
        var plain = StateFixture()
        plain.play()
        #expect(plain.deadline(.chapter, heard: 95) == nil)
        #expect(plain.perform(.nextChapter, heard: 95).0 == .failure(.noChapters))
    }

    // MARK: The output

    @Test("the output off pauses playing, refuses play until it is on, shows in the snapshot and is saved")
    func outputSwitch() {
        var world = StateFixture()
        world.play()
        let (off, changes) = world.perform(.setOutputEnabled(false))
        #expect(off == .success(.done) && changes.isSuperset(of: [.output, .state]))
        #expect(world.state.transport == .paused && !world.shown(at: 10).outputEnabled)
        #expect(world.perform(.play).0 == .failure(.outputDisabled))
        #expect(world.perform(.togglePlayPause).0 == .failure(.outputDisabled))
        #expect(world.state.transport == .paused)
        #expect(world.state.resumeState(frame: 0).outputEnabled == false)
        // Moves still work while it is off; on again, nothing resumes by itself.
        #expect(world.perform(.nextTrack).0 == .success(.done))
        let (toggled, back) = world.perform(.setOutputEnabled(nil))
        #expect(toggled == .success(.done) && back == .output && world.state.transport == .paused)
        #expect(world.shown(at: 0).outputEnabled && world.state.resumeState(frame: 0).outputEnabled == nil)
        #expect(world.perform(.play).0 == .success(.done) && world.state.transport == .playing)
        #expect(world.perform(.setOutputEnabled(true)).1 == [], "already on: nothing changes")
    }

    // MARK: The sleep timer

    @Test("after a time: due then, the plan fades out before it, and reaching it pauses and keeps the bookmark")
    func sleepAfterTime() throws {
        var world = StateFixture()
        world.play()
        #expect(world.perform(.setSleepTimer(.seconds(600)), heard: 60).1 == .sleepTimer)
        #expect(world.deadline(.sleep, heard: 60) == world.now + 600)
        let fade = try #require(world.plan(heard: 60).sleepFade)
        #expect(fade.time == world.now + 600 && fade.length == 10 && fade.start == world.now + 590)
        world.now += 600
        let changes = world.reach(.sleep, heard: 660)
        #expect(changes.isSuperset(of: [.state, .sleepTimer]))
        #expect(world.state.transport == .paused && world.bookmark == 660)
        #expect(world.plan().output == .held(keepsDevice: true) && world.plan(heard: 660).sleepFade == nil)
        #expect(world.deadline(.sleep, heard: 660) == nil)
    }

    @Test("at the end of the item: due when the position reaches it, paused at its last frame")
    func sleepAtEndOfItem() throws {
        var world = StateFixture()
        world.play()
        _ = world.perform(.setSleepTimer(.boundary(.endOfItem)), heard: 1000)
        #expect(world.state.sleep.target == SleepTarget(item: 1, seconds: 1200))
        #expect(world.deadline(.sleep, heard: 1000) == world.now + 200 + PlayerState.boundaryLateness)
        #expect(try #require(world.plan(heard: 1000).sleepFade).start == world.now + 190)
        // Not reached by the device yet: nothing happens, and the deadline is later.
        #expect(world.reach(.sleep, heard: 1100) == [])
        world.now += 200
        let changes = world.reach(.sleep, heard: 1200)
        #expect(changes.isSuperset(of: [.state, .sleepTimer, .position]))
        #expect(world.state.transport == .paused && world.state.heldFrame == StateFixture.frame(1200))
        #expect(world.bookmark == nil, "played to its end: it starts from the beginning next time")
    }

    @Test("at the end of the chapter: aimed at the chapter heard; refused without chapters")
    func sleepAtEndOfChapter() {
        var world = StateFixture(chapters: Self.chapters)
        world.play()
        #expect(world.perform(.setSleepTimer(.boundary(.endOfChapter)), heard: 150).1 == .sleepTimer)
        #expect(world.state.sleep.target == SleepTarget(item: 1, seconds: 200))
        #expect(world.deadline(.sleep, heard: 150) == world.now + 50 + PlayerState.boundaryLateness)
        var plain = StateFixture()
        plain.play()
        #expect(plain.perform(.setSleepTimer(.boundary(.endOfChapter)), heard: 150).0 == .failure(.noChapters))
        #expect(plain.state.sleep.timer == nil)
    }

    @Test("a move aims a boundary timer again where playback landed; cancel ends it and its fade")
    func sleepFollowsMovesAndCancels() {
        var world = StateFixture(chapters: Self.chapters)
        world.play()
        _ = world.perform(.setSleepTimer(.boundary(.endOfChapter)), heard: 50)
        #expect(world.state.sleep.target == SleepTarget(item: 1, seconds: 100))
        _ = world.perform(.nextChapter, heard: 50)
        world.started()
        #expect(world.state.sleep.target == SleepTarget(item: 1, seconds: 200))
        _ = world.perform(.nextTrack, heard: 120)
        world.started()
        #expect(world.state.sleep.target == SleepTarget(item: 2, seconds: 100))
        // Playing on into the next chapter by itself does not move it.
        #expect((world.deadline(.sleep, heard: 150) ?? .infinity) <= world.now)
        #expect(world.perform(.cancelSleepTimer, heard: 60).1 == .sleepTimer)
        #expect(world.deadline(.sleep, heard: 60) == nil && world.plan(heard: 60).sleepFade == nil)
    }

    // MARK: Bookmarks

    @Test("every move saves the bookmark of the item left; going back plays it from there")
    func bookmarksOnMoves() throws {
        var world = StateFixture()
        world.play()
        let (_, next) = world.perform(.nextTrack, heard: 120)
        #expect(next.contains(.item))
        #expect(world.state.bookmarks.position(for: world.state.queue.items[0]) == 120)
        world.started()
        // Back within 3 s of the start: the item before, from its bookmark.
        let (_, back) = world.perform(.previousTrack, heard: 2)
        #expect(back.contains(.item) && world.state.queue.current?.id == 1)
        #expect(world.plannedStart()?.frame == StateFixture.frame(120))
        world.started()
        // Upcoming items play from their bookmarks too.
        _ = world.perform(.jump(index: 2), heard: 300)
        world.started()
        _ = world.perform(.jump(index: 0), heard: 400)
        world.started()
        let upcoming = try #require(world.plannedStartOrRunning()?.upcoming)
        #expect(upcoming.map(\.startFrame) == [2, 400].map(StateFixture.frame), "item 2 left at 2 s, item 3 at 400 s")
        // Pause and stop save it too; stop holds it at its bookmark.
        #expect(world.perform(.pause, heard: 500).1.contains(.state) && world.bookmark == 500)
        #expect(world.perform(.stop).1.contains(.state) && world.state.heldFrame == StateFixture.frame(500))
    }

    @Test("a seek saves where it landed; playing to the end forgets the bookmark")
    func bookmarkOnJumpAndEnd() {
        var world = StateFixture()
        world.play()
        let (_, changes) = world.perform(.changePlaybackPosition(position: 700), heard: 10)
        #expect(changes.contains(.position) && world.bookmark == 700)
        world.started()
        world.state.itemFinished(1, now: world.now)
        #expect(world.bookmark == nil)
    }

    // MARK: Plays and skips

    @Test(
        "the library's plays and skips follow the hearings: a listen, once; a hearing left for another before 30 s heard, a skip"
    )
    func playsAndSkips() throws {
        var world = StateFixture(books: 3, duration: 300)
        world.play()
        world.state.hearingAudible(nil, now: world.now)
        let counted = { (world: inout StateFixture) in world.state.takeEvents().compactMap(SongStatistic.init) }
        _ = counted(&world)
        // 150 s is half of 300 s, before 240 s.
        _ = world.reach(.listen, heard: 150.5)
        #expect(counted(&world).map(\.kind) == [.played])
        // Left after its listen counted: no skip. The next one, left at 10 s: a skip.
        _ = world.perform(.nextTrack, heard: 200)
        world.started()
        world.state.hearingAudible(nil, now: world.now)
        #expect(counted(&world).isEmpty)
        _ = world.perform(.nextTrack, heard: 10)
        world.started()
        world.state.hearingAudible(nil, now: world.now)
        let skipped = counted(&world)
        #expect(skipped.map(\.kind) == [.skipped] && skipped.last?.path == "/books/1.m4b")
        // Leaving at 31 s is no skip; leaving a stopped item is none either.
        _ = world.perform(.jump(index: 1), heard: 31)
        world.started()
        world.state.hearingAudible(nil, now: world.now)
        _ = world.perform(.stop)
        _ = world.perform(.jump(index: 2))
        #expect(counted(&world).isEmpty)
    }

    // MARK: Phrase moves

    static let phrases = [
        Phrase(start: 10, end: 20), Phrase(start: 30, end: 40), Phrase(start: 65, end: 80),
    ]

    /// A state playing the first book with its phrases known, phrase mode `enabled`.
    static func withPhrases(enabled: Bool, chapters: [Chapter] = []) -> StateFixture {
        var world = StateFixture(chapters: chapters)
        let item = world.state.queue.items[0]
        _ = world.state.setPhrases(
            StoredPhrases(
                itemID: item.id, parameters: world.state.phraseParameters(for: item),
                list: PhraseList(phrases: Self.phrases, isComplete: true)))
        if enabled { _ = world.perform(.setPhraseMode(PhraseModeChange(enabled: true, repeats: 2, gapFactor: 1))) }
        world.play()
        return world
    }

    @Test("in phrase mode each pass of a phrase is an engine item ending at its end, followed by its gap")
    func phrasePlan() throws {
        var world = Self.withPhrases(enabled: true)
        #expect(world.state.phraseStep == PhraseStep(phrase: 0, repetition: 0))
        _ = world.perform(.nextPhrase, heard: 15)
        let start = try #require(world.plannedStart())
        #expect(start.frame == StateFixture.frame(30))
        let passes = [try #require(start.current)] + start.upcoming.prefix(4)
        #expect(passes.map(\.startFrame) == [30, 30, 65, 65, 80].map(StateFixture.frame))
        #expect(passes.map(\.endFrame) == [40, 40, 80, 80, nil].map { $0.map(StateFixture.frame) })
        let gaps = [1, 1, 2, 2].map { world.state.phraseMode.gap(after: Self.phrases[$0], rate: 1) }
        #expect(passes.prefix(4).map(\.gapFrames) == gaps.map(StateFixture.frame))
        #expect(Set(passes.prefix(4).map(\.mark)).count == 4, "each pass is told apart")
        world.started()
        // From the last phrase, on to the next item.
        _ = world.perform(.nextPhrase, heard: 70)
        world.started()
        let (result, changes) = world.perform(.nextPhrase, heard: 70)
        #expect(result == .success(.position(0)) && changes.contains(.item) && world.state.queue.current?.id == 2)
    }

    @Test(
        "nextPhrase, skipForward and changePlaybackPosition to the same place have the same bookmark and sleep effects")
    func sameEffectsWhicheverCommandMoves() {
        let chapters = [Chapter(start: 0, end: 60, title: "One"), Chapter(start: 60, end: 1200, title: "Two")]
        // From 50 s, in the silence after the second phrase: the next one starts at 65 s, 15 s on.
        let commands: [PlayerCommand] = [.nextPhrase, .skipForward(interval: 15), .changePlaybackPosition(position: 65)]
        var outcomes: [(ChangeSet, BookmarkBook, SleepTimerState, Int)] = []
        for command in commands {
            var world = Self.withPhrases(enabled: false, chapters: chapters)
            _ = world.perform(.setSleepTimer(.boundary(.endOfChapter)), heard: 45)
            #expect(world.state.sleep.target == SleepTarget(item: 1, seconds: 60))
            let (result, changes) = world.perform(command, heard: 50)
            #expect(result == .success(.position(65)), "\(command)")
            outcomes.append(
                (
                    changes.subtracting(.phrase), world.state.bookmarks, world.state.sleep,
                    world.plannedStart()?.frame ?? -1
                ))
        }
        for (command, outcome) in zip(commands, outcomes) {
            #expect(outcome.0 == outcomes[0].0, "\(command): \(outcome.0)")
            #expect(outcome.1 == outcomes[0].1, "\(command)")
            #expect(outcome.2 == outcomes[0].2, "\(command)")
            #expect(outcome.3 == StateFixture.frame(65), "\(command)")
        }
        #expect(outcomes[0].0.contains(.position))
        #expect(outcomes[0].1.bookmarks.first?.position == 65)
        #expect(outcomes[0].2.target == SleepTarget(item: 1, seconds: 1200))
    }
}

extension StateFixture {
    /// The pipeline the plan asks for, starting or running.
    func plannedStartOrRunning() -> EnginePlan.Start? {
        guard case .playing(let start) = plan().output else { return nil }
        return start
    }
}
