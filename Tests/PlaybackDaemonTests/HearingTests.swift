import ControlProtocol
import PlaybackEngine
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// What was heard of each item (`Hearing`), on the state value alone: the events a step yields
/// when an item becomes audible and when it stops being heard, with the item's own seconds
/// heard (a seek skips, a pause stops the count, each repeat is a hearing).
@Suite struct HearingTests {
    /// Three items of 300 s, playing from the start of the first, audible at `now`.
    func playing() -> StateFixture {
        var world = StateFixture(books: 3, duration: 300)
        world.play()
        world.state.hearingAudible(nil, now: world.now)
        _ = world.state.takeEvents()
        return world
    }

    /// The hearings that ended since the last look: item, seconds, how.
    func ended(_ world: inout StateFixture) -> [(UInt64, Double, HeardItem.Ending)] {
        world.state.takeEvents().compactMap {
            if case .itemHeard(let heard) = $0 { (heard.item.id, heard.seconds, heard.ending) } else { nil }
        }
    }

    /// Three items of 300 s with `loop` set, playing from the start of the first, audible.
    func looping(_ loop: LoopRange) -> StateFixture {
        var world = StateFixture(books: 3, duration: 300)
        world.state.changeABLoop { _ = $0.set(loop, current: 1) }
        world.play()
        world.state.hearingAudible(nil, now: world.now)
        return world
    }

    /// The hearings that ended among `events`.
    func heardItems(_ events: [PlayerEvent]) -> [HeardItem] {
        events.compactMap { if case .itemHeard(let heard) = $0 { heard } else { nil } }
    }

    func audible(_ events: [PlayerEvent]) -> [(UInt64, Double)] {
        events.compactMap { if case .itemAudible(let item, let began) = $0 { (item.id, began) } else { nil } }
    }

    @Test("a start is audible once the device plays; nothing is said of a pipeline never heard")
    func audibleOnce() {
        var world = StateFixture(books: 3, duration: 300)
        world.play()
        #expect(world.state.takeEvents().isEmpty, "not heard yet")
        world.state.hearingAudible(world.heard(2), now: 1005)
        world.state.hearingAudible(world.heard(3), now: 1006)
        #expect(audible(world.state.takeEvents()).map(\.1) == [1003], "2 s played when the device said it had started")
    }

    @Test("skipped 10 s in, stopped 42 s in: the seconds heard and how it ended")
    func skipAndStop() {
        var world = playing()
        _ = world.perform(.nextTrack, heard: 10)
        #expect(ended(&world).map(\.1) == [10])
        world.started()
        world.state.hearingAudible(nil, now: world.now)
        _ = world.perform(.stop, heard: 42)
        let stopped = ended(&world)
        #expect(stopped.count == 1 && stopped[0].0 == 2 && stopped[0].1 == 42 && stopped[0].2 == .stopped)
    }

    @Test("a seek skips what it jumps over; a pause stops the count, play goes on with the same hearing")
    func seekAndPause() {
        var world = playing()
        _ = world.perform(.changePlaybackPosition(position: 100), heard: 10)
        world.started()
        let halt = world.heard(130)
        _ = world.perform(.pause, heard: 130)
        _ = world.state.engineHalted(at: halt)
        #expect(ended(&world).isEmpty, "a pause ends no hearing")
        _ = world.perform(.play)
        world.started()
        _ = world.perform(.changePlaybackPosition(position: 20), heard: 150)
        world.started()
        _ = world.perform(.nextTrack, heard: 25)
        let heard = ended(&world)
        #expect(heard.count == 1 && heard[0].1 == 10 + 30 + 20 + 5 && heard[0].2 == .skipped, "\(heard)")
    }

    @Test("an item played to its end is heard whole and the next begins where it is heard")
    func finishes() {
        var world = playing()
        world.now += 300
        let next = EnginePosition(itemID: 2, frame: StateFixture.frame(0.5), sampleRate: StateFixture.rate, segment: 1)
        _ = world.state.boundaryHeard(2, segment: 1, next, now: world.now)
        let events = world.state.takeEvents()
        let heard = heardItems(events)
        #expect(heard.map(\.seconds) == [300] && heard.map(\.ending) == [.finished] && heard.first?.began == 1000)
        #expect(audible(events).map(\.0) == [2] && audible(events).first?.1 == world.now - 0.5)
    }

    @Test("repeat-one: each pass is a hearing of its own, finished")
    func repeatOne() {
        var world = playing()
        _ = world.perform(.changeRepeatMode(.one))
        for pass in 1...3 {
            world.now += 300
            let again = EnginePosition(
                itemID: 1, frame: StateFixture.frame(0.25), sampleRate: StateFixture.rate, segment: pass)
            _ = world.state.observe(again, now: world.now)
        }
        let events = world.state.takeEvents()
        let heard = heardItems(events)
        #expect(heard.map(\.seconds) == [300, 300, 300] && heard.allSatisfy { $0.ending == .finished })
        #expect(audible(events).map(\.1) == [1299.75, 1599.75, 1899.75])
    }

    @Test("removed, or replaced by other items: the hearing ends so")
    func removedAndReplaced() {
        var world = playing()
        _ = world.perform(.remove(index: 0, count: 1), heard: 12)
        #expect(ended(&world).map(\.2) == [.removed])
        world.started()
        world.state.hearingAudible(nil, now: world.now)
        let new = StateFixture.books(5).suffix(2).map { item in
            var item = item
            item.id += 10
            return item
        }
        _ = world.state.enqueue(
            Array(new), rejected: [], placement: .end, replace: true, play: true,
            at: Moment(heard: world.heard(7), now: world.now))
        let replaced = ended(&world)
        #expect(replaced.map(\.1) == [7] && replaced.map(\.2) == [.replaced])
    }

    @Test("an A-B loop's passes are runs of one hearing: the lead-in, each pass, then the rest from the loop's end")
    func loopPasses() {
        var world = looping(LoopRange(itemID: 1, start: 10, end: 20, count: 2))
        for (segment, seconds) in [(1, 10.5), (2, 20.5)] {
            let heard = EnginePosition(
                itemID: 1, frame: StateFixture.frame(seconds), sampleRate: StateFixture.rate, segment: segment)
            _ = world.state.observe(heard, now: world.now)
        }
        #expect(world.state.loopRange == nil, "two passes, then the rest")
        _ = world.perform(.nextTrack, heard: 25)
        let heard = ended(&world)
        #expect(heard.count == 1 && heard[0].1 == 20 + 10 + 5 && heard[0].2 == .skipped, "\(heard)")
    }

    func listened(_ events: [PlayerEvent]) -> [(UInt64, Double)] {
        events.compactMap { if case .listened(let item, let began) = $0 { (item.id, began) } else { nil } }
    }

    @Test("the rule: at least 30 s long, and half of it or 4 minutes heard, whichever comes first")
    func listenRule() {
        #expect(ListenRule.secondsNeeded(duration: 29.9) == nil && ListenRule.secondsNeeded(duration: 0) == nil)
        #expect(ListenRule.secondsNeeded(duration: 30) == 15 && ListenRule.secondsNeeded(duration: 40) == 20)
        #expect(ListenRule.secondsNeeded(duration: 480) == 240 && ListenRule.secondsNeeded(duration: 3600) == 240)
        #expect(ListenRule.counts(seconds: 20, duration: 40) && !ListenRule.counts(seconds: 19.5, duration: 40))
    }

    @Test("a listen counts when the seconds heard reach the rule's, not the position: a seek's jump is not heard")
    func listenCountsSecondsHeard() {
        var world = playing()
        #expect(world.deadline(.listen, heard: 0) == world.now + 150 + PlayerState.boundaryLateness)
        _ = world.perform(.changePlaybackPosition(position: 100), heard: 10)
        world.started()
        #expect(world.deadline(.listen, heard: 100) == world.now + 140 + PlayerState.boundaryLateness)
        _ = world.reach(.listen, heard: 239)
        #expect(listened(world.state.takeEvents()).isEmpty, "149 s heard, past the middle by position")
        _ = world.reach(.listen, heard: 240.5)
        #expect(listened(world.state.takeEvents()).map(\.0) == [1], "150.5 s heard")
        #expect(world.deadline(.listen, heard: 241) == nil, "once a hearing")
        _ = world.perform(.nextTrack, heard: 250)
        let heard = heardItems(world.state.takeEvents())
        #expect(heard.count == 1 && heard[0].isListen && heard[0].seconds == 160 && heard[0].began == 1000)
    }

    @Test("a hearing that ends past the rule's seconds before its deadline came is a listen all the same")
    func listenAtTheEnd() {
        var world = playing()
        _ = world.perform(.nextTrack, heard: 200)
        let events = world.state.takeEvents()
        #expect(listened(events).map(\.0) == [1])
        let heard = heardItems(events)
        #expect(heard.map(\.isListen) == [true])
    }

    @Test("an A-B loop is practice: recorded, never a listen")
    func loopIsPractice() {
        var world = looping(LoopRange(itemID: 1, start: 10, end: 200, count: 0))
        #expect(world.deadline(.listen, heard: 20) == nil)
        _ = world.perform(.nextTrack, heard: 190)
        let events = world.state.takeEvents()
        let heard = heardItems(events)
        #expect(listened(events).isEmpty && heard.map(\.isPractice) == [true] && heard.map(\.isListen) == [false])
    }

    @Test("an item shorter than 30 s never counts, heard whole")
    func shortItemsNeverCount() {
        var world = StateFixture(books: 3, duration: 25)
        world.play()
        world.state.hearingAudible(nil, now: world.now)
        #expect(world.deadline(.listen, heard: 0) == nil)
        _ = world.perform(.nextTrack, heard: 24)
        #expect(listened(world.state.takeEvents()).isEmpty)
    }
}
