import PlaybackModel
import Testing

/// Repeat and shuffle: the play order the queue walks, and its edits.
@Suite struct PlayOrderTests {
    private func items(_ count: Int) -> [QueueItem] {
        (1...UInt64(count)).map {
            QueueItem(
                id: $0, path: "/\($0).mp3",
                metadata: TrackMetadata(title: "\($0)", duration: 1, sampleRate: 44_100, channels: 2))
        }
    }

    private func queue(_ count: Int, seed: UInt64 = 7) -> PlaybackQueue {
        var queue = PlaybackQueue(random: SplitMix64(seed: seed))
        queue.append(items(count))
        return queue
    }

    /// Ids played by `steps` automatic advances, the current item first.
    private func played(_ queue: inout PlaybackQueue, steps: Int) -> [UInt64] {
        var ids = [queue.current!.id]
        for _ in 0..<steps {
            guard queue.advance(automatic: true) else { break }
            ids.append(queue.current!.id)
        }
        return ids
    }

    @Test(
        "1,000 shuffled cycles of 10 items under repeat-all: each cycle plays every item once, no item twice across a boundary, and the first items pass chi-square at p = 0.01"
    )
    func shuffleCycles() {
        var queue = queue(10, seed: 20_261_122)
        queue.repeatMode = .all
        queue.setShuffle(.items)
        // The cycle that shuffle starts keeps the current item first; measure the next 1,000.
        _ = played(&queue, steps: 9)
        var firstCounts = [Int](repeating: 0, count: 10)
        var previousLast: UInt64?
        for cycle in 0..<1_000 {
            var ids: [UInt64] = []
            for _ in 0..<10 {
                let moved = queue.advance(automatic: true)
                #expect(moved)
                ids.append(queue.current!.id)
            }
            #expect(Set(ids) == Set(1...10), "cycle \(cycle) plays each item once: \(ids)")
            if let previousLast {
                #expect(ids[0] != previousLast, "cycle \(cycle) starts with the item that ended the last")
            }
            previousLast = ids[9]
            firstCounts[Int(ids[0]) - 1] += 1
        }
        let expected = 100.0
        let chiSquare = firstCounts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        // 9 degrees of freedom: the 0.99 quantile is 21.666.
        #expect(chiSquare < 21.666, "first items \(firstCounts), chi-square \(chiSquare)")
    }

    @Test("a generator that always starts a cycle with the same item fails the same chi-square check")
    func chiSquareDetectsBias() {
        let counts = [1_000, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - 100) * (Double($1) - 100) / 100 }
        #expect(chiSquare > 21.666)
    }

    @Test("shuffle keeps the current item, plays the rest once, and off restores the original order")
    func shuffleOnAndOff() {
        var queue = queue(8)
        queue.select(3)
        queue.setShuffle(.items)
        #expect(queue.current?.id == 4, "turning shuffle on keeps the current item")
        let cycle = played(&queue, steps: 20)
        #expect(cycle.count == 8, "without repeat the cycle ends after every item played once")
        #expect(Set(cycle) == Set(1...8))
        #expect(cycle != [4, 5, 6, 7, 8, 1, 2, 3], "the order is shuffled (for this seed)")
        #expect(queue.current == nil)

        var other = self.queue(8)
        other.select(2)
        other.setShuffle(.items)
        other.advance()
        let shuffledCurrent = other.current!.id
        other.setShuffle(.off)
        #expect(other.current?.id == shuffledCurrent, "turning shuffle off keeps the current item")
        #expect(other.items.map(\.id) == Array(1...8), "the queue's own order was never changed")
        #expect(other.upcoming(limit: 10).map(\.id) == Array((shuffledCurrent + 1)...8))
    }

    @Test("next and previous follow the shuffled order")
    func nextAndPreviousFollowShuffle() {
        var queue = queue(6)
        queue.setShuffle(.items)
        let order = queue.shuffledOrder.map { UInt64($0 + 1) }
        queue.advance()
        queue.advance()
        #expect(queue.current?.id == order[2])
        queue.retreat()
        #expect(queue.current?.id == order[1])
        queue.retreat()
        let movedBack = queue.retreat()
        #expect(!movedBack, "previous stops at the start of the cycle")
        #expect(queue.current?.id == order[0])
    }

    @Test("repeat-one stays on the item at its end, but next moves on; repeat-all wraps")
    func repeatModes() {
        var queue = queue(3)
        queue.repeatMode = .one
        #expect(played(&queue, steps: 4) == [1, 1, 1, 1, 1])
        #expect(queue.upcoming(limit: 3).map(\.id) == [1, 1, 1])
        queue.advance()
        #expect(queue.current?.id == 2, "nextTrack leaves a repeated item")
        queue.repeatMode = .all
        #expect(played(&queue, steps: 4) == [2, 3, 1, 2, 3])
        queue.repeatMode = .off
        #expect(played(&queue, steps: 4) == [3])
        #expect(queue.current == nil)
    }

    @Test("the engine's lookahead under shuffle and repeat-all is what then plays, across the cycle boundary")
    func upcomingIsWhatPlays() {
        var queue = queue(5)
        queue.repeatMode = .all
        queue.setShuffle(.items)
        let predicted = queue.upcoming(limit: 64).map(\.id)
        #expect(predicted.count == 9, "this cycle's 4 remaining items and the whole next cycle, no further")
        #expect(Array(played(&queue, steps: 9).dropFirst()) == predicted)
    }

    @Test("follow walks the order into the next cycle instead of jumping")
    func followCrossesCycle() {
        var queue = queue(4)
        queue.repeatMode = .all
        queue.setShuffle(.items)
        let next = queue.upcoming(limit: 8).map(\.id)
        for _ in 0..<3 { queue.advance() }
        let followed = queue.follow(toItem: next[3])
        #expect(followed)
        #expect(Array(played(&queue, steps: 3).dropFirst()) == Array(next[4...6]))
    }

    @Test("insert, play next, remove and move keep the current item and a valid shuffled order")
    func edits() {
        var queue = queue(5)
        queue.select(1)
        queue.insert(
            items(7).suffix(2).map {
                var item = $0; item.id += 10; return item
            }, at: 0)
        #expect(queue.items.map(\.id) == [16, 17, 1, 2, 3, 4, 5])
        #expect(queue.current?.id == 2)
        queue.insert([QueueItem(id: 30, path: "/30", metadata: queue.items[0].metadata)], at: 4, playNext: true)
        queue.move(from: 6, to: 0)
        #expect(queue.items.map(\.id) == [4, 16, 17, 1, 2, 30, 3, 5])
        #expect(queue.current?.id == 2)
        let removedCurrent = queue.remove(at: [queue.currentIndex!, 0])
        #expect(removedCurrent)
        #expect(queue.items.map(\.id) == [16, 17, 1, 30, 3, 5])
        #expect(queue.current?.id == 30, "the item that would have played next becomes current")

        var shuffled = self.queue(6)
        shuffled.setShuffle(.items)
        shuffled.insert([QueueItem(id: 40, path: "/40", metadata: shuffled.items[0].metadata)], at: 6, playNext: true)
        #expect(shuffled.upcoming(limit: 1).map(\.id) == [40], "play next is next in the shuffled order too")
        shuffled.append([QueueItem(id: 41, path: "/41", metadata: shuffled.items[0].metadata)])
        shuffled.remove(at: [2, 3])
        shuffled.move(from: 0, to: 3)
        #expect(Set(shuffled.shuffledOrder) == Set(shuffled.items.indices), "the order stays a permutation")
        let ids = played(&shuffled, steps: 20)
        #expect(Set(ids) == Set(shuffled.items.map(\.id)) && ids.count == shuffled.count)
    }

    @Test("a saved shuffled order is restored; a broken one is replaced by a valid one")
    func restoring() {
        var saved = queue(5)
        saved.setShuffle(.items)
        saved.advance()
        let restored = PlaybackQueue.restored(
            items: saved.items, currentIndex: saved.currentIndex, repeatMode: .all, shuffleMode: .items,
            shuffledOrder: saved.shuffledOrder)
        #expect(restored.shuffledOrder == saved.shuffledOrder)
        var walked = restored
        var original = saved
        original.repeatMode = .all
        #expect(played(&walked, steps: 3) == played(&original, steps: 3))
        let broken = PlaybackQueue.restored(
            items: saved.items, currentIndex: 9, repeatMode: .off, shuffleMode: .items, shuffledOrder: [0, 0, 1])
        #expect(broken.currentIndex == nil)
        #expect(Set(broken.shuffledOrder) == Set(0..<5))
    }
}
