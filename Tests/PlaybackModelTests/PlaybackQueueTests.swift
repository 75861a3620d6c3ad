import PlaybackModel
import Testing

@Suite struct PlaybackQueueTests {
    private func items(_ ids: ClosedRange<UInt64>) -> [QueueItem] {
        ids.map {
            QueueItem(
                id: $0, path: "/\($0).mp3",
                metadata: TrackMetadata(title: "\($0)", duration: 1, sampleRate: 44_100, channels: 2))
        }
    }

    @Test("the first appended item becomes current; advancing past the end leaves none")
    func appendAndAdvance() {
        var queue = PlaybackQueue()
        #expect(queue.current == nil)
        queue.append(items(1...3))
        #expect(queue.current?.id == 1)
        #expect(queue.upcoming(limit: 10).map(\.id) == [2, 3])
        do { let moved = queue.advance(); #expect(moved) }
        do { let moved = queue.advance(); #expect(moved) }
        do { let moved = queue.advance(); #expect(!moved) }
        #expect(queue.current == nil)
        queue.append(items(4...4))
        #expect(queue.current?.id == 4, "after the end, the first appended item becomes current")
        #expect(queue.count == 4)
    }

    @Test("a reorder at random moves only the range, puts the current item first and keeps the shuffled order's items")
    func reorderAtRandom() {
        var queue = PlaybackQueue(random: SplitMix64(seed: 7))
        queue.append(items(1...40))
        _ = queue.select(10)  // item 11
        queue.setShuffle(.items)
        let playOrder = queue.shuffledOrder.map { queue.items[$0].id }
        queue.reorderAtRandom(5..<30)
        let ids = queue.items.map(\.id)
        #expect(Array(ids[..<5]) == Array(1...5) && Array(ids[30...]) == Array(31...40), "outside the range: as it was")
        #expect(Set(ids[5..<30]) == Set(6...30), "the range holds the same items")
        #expect(ids[5..<30] != ArraySlice(6...30), "in another order (seeded)")
        #expect(queue.currentIndex == 5 && queue.current?.id == 11, "the current item first")
        #expect(queue.shuffledOrder.map { queue.items[$0].id } == playOrder, "the play order names the same items")
        // The current item outside the range is where it was.
        queue.reorderAtRandom(20..<40)
        #expect(queue.currentIndex == 5 && queue.current?.id == 11)
    }

    @Test("select checks its range; index(ofItem:) finds ids")
    func selectAndFind() {
        var queue = PlaybackQueue()
        queue.append(items(1...3))
        do { let moved = queue.select(3); #expect(!moved) }
        do { let moved = queue.select(2); #expect(moved) }
        #expect(queue.current?.id == 3)
        #expect(queue.index(ofItem: 2) == 1)
        #expect(queue.index(ofItem: 9) == nil)
    }

    @Test("the queue never grows past its maximum")
    func bounded() {
        var queue = PlaybackQueue()
        let many = (1...UInt64(PlaybackQueue.maximumCount + 5)).map {
            QueueItem(id: $0, path: "/x", metadata: TrackMetadata(title: "x", duration: 1, sampleRate: 1, channels: 1))
        }
        queue.append(many)
        #expect(queue.count == PlaybackQueue.maximumCount)
        #expect(queue.remainingCapacity == 0)
    }

    @Test("file identities found for a copy of the items go to those still as they were, whatever moved meanwhile")
    func fileIdentities() {
        var queue = PlaybackQueue()
        queue.append(items(1...5))
        let original = queue.items
        let identified = original.map { item in
            var identified = item
            identified.file = FileIdentity(size: Int64(item.id), modified: 1)
            return identified
        }
        var unchanged = queue
        unchanged.setFileIdentities(identified, of: original)
        #expect(unchanged.items.map(\.file?.size) == [1, 2, 3, 4, 5])
        #expect(unchanged.items.map(\.path) == original.map(\.path))

        // Meanwhile: item 2 removed, item 4 retitled, item 6 added, item 5 moved first.
        _ = queue.remove(at: [1])
        _ = queue.updateMetadata(at: "/4.mp3") { $0.title = "retitled" }
        queue.append(items(6...6))
        queue.move(from: 3, to: 0)
        queue.setFileIdentities(identified, of: original)
        #expect(queue.items.map(\.id) == [5, 1, 3, 4, 6])
        #expect(queue.items.map(\.file?.size) == [5, 1, 3, nil, nil])
        #expect(queue.items.first { $0.id == 4 }?.metadata.title == "retitled")
    }
}

@Suite struct NowPlayingTests {
    @Test("position extrapolates with rate and clamps to the duration")
    func extrapolation() {
        let item = QueueItem(
            id: 1, path: "/a", metadata: TrackMetadata(title: "a", duration: 10, sampleRate: 44_100, channels: 2))
        let playing = NowPlaying(
            state: .playing, item: item, elapsed: 2, rate: 1, timestamp: 100, queueIndex: 0, queueCount: 1)
        #expect(playing.position(at: 103.5) == 5.5)
        #expect(playing.position(at: 200) == 10)
        var paused = playing
        paused.rate = 0
        #expect(paused.position(at: 200) == 2)
    }

    @Test("file URLs percent-encode what needs it")
    func fileURL() {
        #expect(FileURL.from(path: "/music/a b/ü#1.mp3") == "file:///music/a%20b/%C3%BC%231.mp3")
    }

    @Test("change bits name themselves in a fixed order")
    func changeNames() {
        #expect(ChangeSet([.commands, .state, .queue]).names == ["state", "queue", "commands"])
    }
}
