import PlaybackModel
import Testing

/// Single, consume's queue side and priorities: what plays after an item, and in which order a
/// shuffled queue plays items of different priorities.
@Suite struct QueueModeTests {
    private func queue(_ count: Int, seed: UInt64 = 11) -> PlaybackQueue {
        var queue = PlaybackQueue(random: SplitMix64(seed: seed))
        queue.append(
            (1...UInt64(count)).map {
                QueueItem(
                    id: $0, path: "/\($0).mp3",
                    metadata: TrackMetadata(title: "\($0)", duration: 1, sampleRate: 44_100, channels: 2))
            })
        return queue
    }

    @Test("single stops after the item (nothing upcoming), repeats it with repeat on; once stops whatever repeat says")
    func itemEnd() {
        var queue = queue(3)
        #expect(queue.itemEnd == .next && queue.upcoming(limit: 5).map(\.id) == [2, 3])
        queue.singleMode = .on
        #expect(queue.itemEnd == .stop && queue.upcoming(limit: 5).isEmpty)
        queue.repeatMode = .all
        #expect(queue.itemEnd == .again, "MPD's single with repeat: the song again")
        #expect(queue.upcoming(limit: 3).map(\.id) == [1, 1, 1])
        queue.singleMode = .once
        #expect(queue.itemEnd == .stop && queue.upcoming(limit: 5).isEmpty)
        queue.repeatMode = .one
        #expect(queue.itemEnd == .again, "repeat-one is repeat-one")
        // Where playback stops, the end of the item still moves on to the next one.
        queue.repeatMode = .off
        #expect(queue.advance(automatic: true) && queue.current?.id == 2)
    }

    @Test("shuffled, items to come play in descending priority; the current item stays; a new cycle orders by priority")
    func priorityOrder() {
        var queue = queue(8)
        queue.setShuffle(.items)
        #expect(queue.current?.id == 1)
        #expect(queue.setPriority(5, at: [6]) == true)
        #expect(queue.setPriority(9, at: [3]) == true)
        #expect(queue.setPriority(9, at: [3]) == false, "unchanged")
        #expect(queue.setPriority(200, at: [0]) == true, "the current item's priority changes, not its place")
        #expect(queue.current?.id == 1)
        #expect(queue.upcoming(limit: 2).map(\.id) == [4, 7])
        // Items enqueued later (priority 0) join after the prioritized ones.
        queue.append([
            QueueItem(
                id: 20, path: "/20.mp3",
                metadata: TrackMetadata(title: "20", duration: 1, sampleRate: 44_100, channels: 2))
        ])
        #expect(queue.upcoming(limit: 2).map(\.id) == [4, 7])
        // A whole new cycle: the highest priorities first.
        queue.repeatMode = .all
        var walker = queue
        var order: [UInt64] = []
        for _ in 0..<(queue.count * 2) {
            _ = walker.advance(automatic: true)
            order.append(walker.current!.id)
        }
        let second = Array(order[(queue.count - 1)...].prefix(3))
        #expect(second == [1, 4, 7], "the next cycle: 200, 9, 5 first: \(order)")
    }

    @Test("a played item comes again only when raised above the current item's priority; off shuffle, order is kept")
    func playedItems() {
        var queue = queue(5)
        queue.setShuffle(.items)
        _ = queue.advance()
        _ = queue.advance()
        let played = queue.shuffledOrder[0]
        #expect(queue.setPriority(1, at: [queue.currentIndex!]) == true)
        #expect(queue.setPriority(1, at: [played]) == true)
        #expect(!queue.upcoming(limit: 5).map(\.id).contains(queue.items[played].id), "not above the current's")
        #expect(queue.setPriority(2, at: [played]) == true)
        #expect(queue.upcoming(limit: 1).map(\.id) == [queue.items[played].id], "raised above it: next")
        var ordered = self.queue(4)
        #expect(ordered.setPriority(50, at: [3]) == true)
        #expect(ordered.upcoming(limit: 3).map(\.id) == [2, 3, 4] && ordered.items[3].priority == 50)
    }
}
