import SystemSupport
import Testing

@testable import PlaybackEngine

@Suite struct SampleRingTests {
    @Test("capacity rounds up to a power of two; write stops when full")
    func capacityAndFull() {
        let ring = SampleRing<Int16>(capacity: 1000)
        #expect(ring.capacity == 1024)
        let data = [Int16](repeating: 7, count: 1500)
        let written = data.withUnsafeBufferPointer { ring.copy($0) }
        #expect(written == 1024)
        #expect(ring.writableCount == 0)
        #expect(ring.readableCount == 1024)
    }

    @Test("a producer waiting for space is woken once half the ring (less the reserve) is free, not at each read")
    func refillAtHalf() {
        let ring = SampleRing<Int16>(capacity: 1000, reserve: 24)
        let usable = ring.capacity - ring.reserve
        _ = [Int16](repeating: 1, count: usable).withUnsafeBufferPointer { ring.copy($0) }
        #expect(ring.writableCount == 0 && !ring.hasRoomToRefill)
        ring.consume(usable / 2 - 1)
        #expect(ring.writableCount == usable / 2 - 1 && !ring.hasRoomToRefill, "one short of half")
        ring.consume(1)
        #expect(ring.hasRoomToRefill)
    }

    @Test("wrap-around keeps order; the readable region is contiguous")
    func wrapAround() {
        let ring = SampleRing<Int16>(capacity: 8)
        _ = [Int16](0..<6).withUnsafeBufferPointer { ring.copy($0) }
        ring.consume(5)
        _ = [Int16](6..<12).withUnsafeBufferPointer { ring.copy($0) }
        var out: [Int16] = []
        while ring.readableCount > 0 {
            let region = ring.readableRegion()
            out += region
            ring.consume(region.count)
        }
        #expect(out == [5, 6, 7, 8, 9, 10, 11])
        #expect(ring.totalRead == 12)
    }

    @Test("six channels: the capacity is whole frames, so no region splits a frame at the end of the storage")
    func wholeFrames() {
        let ring = SampleRing<Int16>(capacity: 100, reserve: 12, channels: 6)
        #expect(ring.capacity == 192, "112 samples are 19 frames: 32 frames")
        var split = 0
        for step in 0..<1_000 {
            let writable = ring.writableRegion()
            split += writable.count % 6 == 0 ? 0 : 1
            ring.commit(min(writable.count, (step % 7 + 1) * 6))
            let readable = ring.readableRegion()
            split += readable.count % 6 == 0 ? 0 : 1
            ring.consume(min(readable.count, (step % 5 + 1) * 6))
        }
        #expect(split == 0)
        #expect(ring.totalRead > 10 * ring.capacity, "the storage wrapped many times")
    }

    /// On two threads of their own, as the decoder and output threads are: not tasks of the
    /// test runner's cooperative pool (one thread per core), where each would spin waiting for
    /// the other while the other waited for a thread, holding up every other test meanwhile.
    @Test("a producer and a consumer thread pass 20 million samples in order")
    func concurrentTransfer() {
        let ring = SampleRing<Int16>(capacity: 4096)
        let total = 20_000_000
        let producer = NamedThread(name: "test-producer") {
            var next = 0
            var chunk = [Int16](repeating: 0, count: 1000)
            while next < total {
                let count = min(chunk.count, total - next)
                for i in 0..<count { chunk[i] = Int16(truncatingIfNeeded: next + i) }
                var offset = 0
                while offset < count {
                    offset += chunk.withUnsafeBufferPointer {
                        ring.copy(UnsafeBufferPointer(rebasing: $0[offset..<count]))
                    }
                }
                next += count
            }
        }
        let mismatches = Locked(0)
        let consumer = NamedThread(name: "test-consumer") {
            var expected = 0
            var bad = 0
            while expected < total {
                let region = ring.readableRegion()
                for (i, sample) in region.enumerated() where sample != Int16(truncatingIfNeeded: expected + i) {
                    bad += 1
                }
                expected += region.count
                ring.consume(region.count)
            }
            mismatches.withLock { $0 = bad }
        }
        producer.join()
        consumer.join()
        #expect(mismatches.withLock { $0 } == 0)
    }
}

extension SampleRing<Int16> {
    /// Copies as many of `samples` as fit, through the producer API the decoder uses
    /// (`writableRegion` and `commit`); returns how many were copied.
    func copy(_ samples: UnsafeBufferPointer<Int16>) -> Int {
        var copied = 0
        while copied < samples.count {
            let region = writableRegion()
            let count = min(region.count, samples.count - copied)
            guard count > 0 else { break }
            _ = UnsafeMutableBufferPointer(rebasing: region[..<count])
                .initialize(from: UnsafeBufferPointer(rebasing: samples[copied..<copied + count]))
            commit(count)
            copied += count
        }
        return copied
    }
}
