import ControlProtocol
import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// The player's rules on the state value alone: no engine, no loop, no clock. Each operation's
/// `ChangeSet` is what subscribers are told, so every test asserts it.
@Suite struct PlayerStateTests {
    /// Items of 60 s at 44.1 kHz, named by their index.
    static func items(_ count: Int, firstID: UInt64 = 1, album: String = "A") -> [QueueItem] {
        (0..<count).map {
            var metadata = TrackMetadata(title: "t\($0)", duration: 60, sampleRate: 44100, channels: 2)
            metadata.album = album
            return QueueItem(id: firstID + UInt64($0), path: "/music/\($0).mp3", metadata: metadata)
        }
    }

    /// Bookmarks for items of 60 s and more, with one at `seconds` into the 60 s item at `path`.
    static func book(path: String, at seconds: Double) -> BookmarkBook {
        BookmarkBook(
            minimumDuration: 60,
            entries: [
                BookmarkBook.Entry(
                    bookmark: Bookmark(path: path, title: "t", position: seconds, duration: 60, saved: 0),
                    file: FileIdentity(size: 0, modified: 0))
            ])
    }

    /// A state with `count` items queued, the first current.
    static func queued(_ count: Int) -> PlayerState {
        var state = PlayerState(settings: DaemonSettings())
        _ = state.insert(items(count), placement: .end, replace: false)
        return state
    }

    @Test("enqueueing into an empty queue makes the first item current; later items change only the queue")
    func insert() {
        var state = PlayerState(settings: DaemonSettings())
        let first = state.insert(Self.items(2), placement: .end, replace: false)
        #expect(first.changes == [.queue, .item] && first.firstNew == 0)
        #expect(state.queue.currentIndex == 0)
        let next = state.insert(Self.items(1, firstID: 10), placement: .next, replace: false)
        #expect(next.changes == .queue && next.firstNew == 1)
        #expect(state.queue.items.map(\.id) == [1, 10, 2])
        let replaced = state.insert(Self.items(1, firstID: 20), placement: .next, replace: true)
        #expect(replaced.changes == [.queue, .item] && replaced.firstNew == 0)
        #expect(state.queue.items.map(\.id) == [20])
    }

    @Test("previousTrack goes back an item within 3 s of the start, restarts the item after, and at the first item")
    func previousTrackRule() {
        var state = Self.queued(3)
        #expect(state.select(1) == [.item, .position])
        #expect(state.retreat(elapsed: 3.5) == nil, "past the threshold: the item restarts")
        #expect(state.queue.currentIndex == 1)
        #expect(state.retreat(elapsed: 2.9) == [.item, .position])
        #expect(state.queue.currentIndex == 0 && state.heldFrame == 0)
        #expect(state.retreat(elapsed: 0) == nil, "the first item: nothing before it")
    }

    @Test("next past the last item is the end; playOut clears now-playing and stops")
    func advanceAndPlayOut() {
        var state = Self.queued(2)
        #expect(state.advance() == [.item, .position])
        #expect(state.advance() == nil)
        #expect(state.setTransport(.playing) == .state)
        #expect(state.playOut() == [.item, .state])
        #expect(state.queue.current == nil && state.transport == .stopped)
        #expect(state.queue.count == 2, "the queue is kept")
    }

    @Test("stop keeps the queue and the item, back at the start; a position change only when it moved")
    func stop() {
        var state = Self.queued(2)
        _ = state.setTransport(.paused)
        #expect(state.moveHeld(to: 44100) == .position)
        #expect(state.stop() == [.position, .state])
        #expect(state.heldFrame == 0 && state.queue.currentIndex == 0)
        _ = state.setTransport(.paused)
        #expect(state.stop() == .state, "already at the start")
        #expect(state.stop() == [], "stopped already")
    }

    @Test("removing the current item moves to the next from its start; removing another changes only the queue")
    func remove() {
        var state = Self.queued(4)
        _ = state.select(1)
        state.hold(1000)
        let other = state.remove(at: [3])
        #expect(other.changes == .queue && !other.removedCurrent && state.heldFrame == 1000)
        let current = state.remove(at: [1])
        #expect(current.changes == [.queue, .item, .position] && current.removedCurrent)
        #expect(state.queue.current?.id == 3 && state.heldFrame == 0)
        #expect(state.move(from: 0, to: 1) == .queue)
        #expect(state.clear() == [.queue, .item])
        #expect(state.clear() == [], "nothing left to clear")
    }

    @Test("modes and commands change only when they differ")
    func modesAndCommands() {
        var state = Self.queued(3)
        #expect(state.setMode(\.repeatMode, to: .all) == .modes)
        #expect(state.setMode(\.repeatMode, to: .all) == [])
        #expect(state.setShuffle(.items) == .modes)
        #expect(state.setShuffle(.items) == [])
        #expect(state.setEnabled(.nextTrack, false) == .commands)
        #expect(state.setEnabled(.nextTrack, false) == [])
        #expect(!state.availability.isEnabled(.nextTrack))
    }

    @Test("the volume is clamped, the rate clamped and rounded to a thousandth; equal values change nothing")
    func sound() {
        var state = PlayerState(settings: DaemonSettings())
        #expect(state.changeSound { $0.setVolume(50) } == .volume && state.sound.volume == 50)
        #expect(state.changeSound { $0.setVolume(150) } == .volume && state.sound.volume == 100)
        #expect(state.changeSound { $0.setVolume(-5) } == .volume && state.sound.volume == 0)
        #expect(state.changeSound { $0.setVolume(0) } == [])
        #expect(state.changeSound { $0.setPlaybackRate(1.23456) } == .rate && state.sound.playbackRate == 1.235)
        #expect(
            state.changeSound { $0.setPlaybackRate(99) } == .rate
                && state.sound.playbackRate == CommandCatalog.playbackRateRange.upperBound)
        #expect(state.changeSound { $0.setRateMinimum(600) } && !state.changeSound { $0.setRateMinimum(600) })
        let long = Self.items(1)[0]
        #expect(state.sound.rate(of: long) == 1, "a 60 s item is shorter than the 10-minute minimum")
    }

    @Test("a reload takes the route policy and skip intervals; the volume only where the file changed it")
    func reload() {
        var old = DaemonSettings()
        var state = PlayerState(settings: old)
        #expect(state.changeSound { $0.setVolume(40) } == .volume, "a client's change")
        var new = old
        new.onRouteBack = .resume
        new.skipForwardInterval = 30
        new.disabled = [.stop]
        #expect(state.apply(new, replacing: old) == .commands)
        #expect(state.sound.volume == 40, "the file did not change the volume: the client's stays")
        #expect(state.route.onBack == .resume && state.availability.skipForwardIntervals == [30])
        #expect(!state.availability.isEnabled(.stop))
        old = new
        new.volume = 70
        new.disabled = []
        #expect(state.apply(new, replacing: old) == [.volume, .commands])
        #expect(state.sound.volume == 70 && state.availability.isEnabled(.stop))
    }

    @Test("restoring drops vanished items; a vanished current item gives way to the next from its start, paused")
    func restore() {
        let items = Self.items(3)
        let saved = ResumeState(
            items: items, currentIndex: 1, position: 30, state: .playing, repeatMode: .all, shuffleMode: .off,
            shuffledOrder: nil, disabledCommands: [.nextTrack], volume: 55)
        var kept = PlayerState(settings: DaemonSettings())
        let changes = kept.restore(saved, vanished: [])
        #expect(changes.isSuperset(of: [.queue, .item, .state, .commands, .volume]))
        #expect(kept.transport == .paused && kept.heldFrame == 30 * 44100 && kept.queue.repeatMode == .all)
        #expect(kept.resumeState(frame: kept.heldFrame).position == 30)
        var moved = PlayerState(settings: DaemonSettings())
        _ = moved.restore(saved, vanished: [1])
        #expect(moved.queue.current?.id == 3 && moved.heldFrame == 0 && moved.queue.count == 2)
        var stopped = PlayerState(settings: DaemonSettings())
        var savedStopped = saved
        savedStopped.state = .stopped
        #expect(!stopped.restore(savedStopped, vanished: []).contains(.state))
        #expect(stopped.transport == .stopped)
    }

    @Test("the snapshot shows the held position in seconds and the applied ReplayGain of an album in order")
    func snapshot() {
        var settings = DaemonSettings()
        settings.replayGain.mode = .auto
        var state = PlayerState(settings: settings)
        var items = Self.items(2)
        items[0].metadata.replayGainAlbumGain = -6
        items[0].metadata.replayGainTrackGain = -3
        _ = state.insert(items, placement: .end, replace: false)
        let snapshot = state.snapshot(frame: 22050, timestamp: 100, rate: 0, now: 100)
        #expect(snapshot.elapsed == 0.5 && snapshot.timestamp == 100 && snapshot.queueCount == 2)
        #expect(snapshot.replayGain?.gain == -6, "the next item shares the album: the album gain")
        #expect(state.queuePage(offset: 1, limit: 5).items.map(\.id) == [2])
    }

    @Test(
        "an item with a bookmark starts there whenever it becomes current, and stop returns there; upcoming items carry it, the current item's next pass does not"
    )
    func bookmarkedStarts() throws {
        var state = PlayerState(settings: DaemonSettings(), bookmarks: Self.book(path: "/music/1.mp3", at: 30))
        _ = state.insert(Self.items(3), placement: .end, replace: false)
        #expect(state.heldFrame == 0)
        _ = state.select(1)
        #expect(state.heldFrame == 30 * 44_100)
        _ = state.moveHeld(to: 100)
        _ = state.stop()
        #expect(state.heldFrame == 30 * 44_100, "stop goes back to where the item starts")
        _ = state.select(0)
        let upcoming = state.engineItems(startingAt: 0)?.upcoming ?? []
        #expect(upcoming.map(\.startFrame) == [30 * 44_100, 0])
        _ = state.select(1)
        _ = state.setMode(\.repeatMode, to: .one)
        let loop = state.engineItems(startingAt: 0)?.upcoming ?? []
        #expect(!loop.isEmpty && loop.allSatisfy { $0.startFrame == 0 }, "a loop of it starts at 0")
        var fresh = PlayerState(settings: DaemonSettings(), bookmarks: Self.book(path: "/music/0.mp3", at: 12))
        _ = fresh.insert(Self.items(1), placement: .end, replace: false)
        #expect(fresh.heldFrame == 12 * 44_100, "the first item of an empty queue")
    }

    @Test(
        "an A-B loop lays out the engine's items: the current one to the end, the passes left, then the rest; each segment counts a pass"
    )
    func loopLayout() throws {
        var state = PlayerState(settings: DaemonSettings())
        _ = state.insert(Self.items(2), placement: .end, replace: false)
        #expect(state.changeABLoop { $0.set(LoopRange(itemID: 1, start: 1, end: 2, count: 3), current: 1) } == .loop)
        let laidOut = state.engineItems(startingAt: 0)
        let (current, upcoming) = try #require(laidOut)
        #expect(current.endFrame == 88_200)
        #expect(upcoming.map(\.id) == [1, 1, 1, 2])
        #expect(upcoming.map(\.startFrame) == [44_100, 44_100, 88_200, 0])
        #expect(upcoming.map(\.endFrame) == [88_200, 88_200, nil, nil])
        let pastEnd = state.engineItems(startingAt: 90_000)?.upcoming.map(\.id)
        #expect(pastEnd == [2], "past the end: no loop")
        let first = try #require(state.queue.current)
        state.changeABLoop { $0.pipelineStarted(atFrame: 0, in: first) }
        #expect(state.changeABLoop { $0.segmentBegan(2, in: 1) } == .loop && state.loopRange?.pass == 3)
        #expect(
            state.changeABLoop { $0.segmentBegan(3, in: 1) } == .loop && state.loopRange == nil,
            "the rest of the item: the loop ended")
        _ = state.changeABLoop { $0.set(LoopRange(itemID: 1, start: 1, end: 2, count: 0), current: 1) }
        let endless = state.engineItems(startingAt: 0)?.upcoming.count
        #expect(endless == PlayerState.engineLookahead)
        _ = state.select(1)
        #expect(state.loopRange == nil, "a loop ends with its item")
    }
}
