import Synchronization

/// A preallocated lock-free single-producer/single-consumer ring of interleaved samples
/// (`Int16` or `Int32`: one pipeline's `PCMSample`).
///
/// The decoder thread is the only producer, the output thread the only consumer. Indices
/// count samples since the ring was created and never wrap in practice (Int is 64-bit);
/// the slot is `index % capacity`. The capacity is a whole number of frames, so the end of the
/// storage never splits one: every region the producer or the consumer is given holds whole
/// frames (a decoding library writes no part of one, a device takes none). The consumer's
/// index doubles as the absolute count of samples handed to the device, which the clock and
/// the segment log are expressed in.
///
/// With a `reserve`, the producer never fills the last `reserve` slots, so that many samples
/// behind the read position stay as they were: the consumer can step back over them
/// (`unconsume`) to hand them to the device again, processed anew.
final class SampleRing<Sample: PCMSample>: @unchecked Sendable {
    let capacity: Int
    /// Samples behind the read position the producer leaves alone.
    let reserve: Int
    private let storage: UnsafeMutablePointer<Sample>
    private let writeIndex = Atomic<Int>(0)
    private let readIndex = Atomic<Int>(0)

    /// `capacity` and `reserve` are in samples, of `channels` a frame (`reserve` a whole number
    /// of frames); their sum is rounded up to a power of two frames.
    init(capacity: Int, reserve: Int = 0, channels: Int = 1) {
        precondition(reserve >= 0 && channels >= 1 && reserve % channels == 0)
        var frames = 1
        while frames * channels < capacity + reserve { frames <<= 1 }
        let size = frames * channels
        self.capacity = size
        self.reserve = reserve
        // Not zeroed: a sample is read only after it was written, and zeroing a second of audio
        // on the event loop (page faults included) was a tenth of `play`'s time there.
        self.storage = .allocate(capacity: size)
    }

    deinit { storage.deallocate() }

    /// Samples the consumer has taken so far (consumer's view is exact; others see a lower bound).
    var totalRead: Int { readIndex.load(ordering: .acquiring) }
    /// Samples the producer has written so far.
    var totalWritten: Int { writeIndex.load(ordering: .acquiring) }

    /// Producer: free slots.
    var writableCount: Int {
        // Never negative: a read position stepped back (`unconsume`) can leave more than
        // `capacity - reserve` samples unread for a while.
        max(0, capacity - reserve - (writeIndex.load(ordering: .relaxed) - readIndex.load(ordering: .acquiring)))
    }

    /// Consumer: whether a producer waiting for space has half the ring to fill. Woken then,
    /// not whenever a device period was taken, it fills the ring in a few runs a second
    /// whatever the device's period.
    var hasRoomToRefill: Bool { capacity - reserve - readableCount >= (capacity - reserve) / 2 }

    /// Producer: the longest contiguous run of free slots (possibly empty), to be filled in
    /// place and then published with `commit`.
    func writableRegion() -> UnsafeMutableBufferPointer<Sample> {
        let write = writeIndex.load(ordering: .relaxed)
        let free = max(0, capacity - reserve - (write - readIndex.load(ordering: .acquiring)))
        let start = write % capacity
        return UnsafeMutableBufferPointer(start: storage + start, count: min(free, capacity - start))
    }

    /// Producer: publishes `count` samples written into `writableRegion()`.
    func commit(_ count: Int) {
        writeIndex.store(writeIndex.load(ordering: .relaxed) + count, ordering: .releasing)
    }

    /// Consumer: the longest contiguous run of readable samples (possibly empty).
    func readableRegion() -> UnsafeBufferPointer<Sample> {
        let read = readIndex.load(ordering: .relaxed)
        let available = writeIndex.load(ordering: .acquiring) - read
        let start = read % capacity
        return UnsafeBufferPointer(start: storage + start, count: min(available, capacity - start))
    }

    /// Consumer: readable samples in total.
    var readableCount: Int {
        writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed)
    }

    /// Consumer: marks `count` samples as read.
    func consume(_ count: Int) {
        readIndex.store(readIndex.load(ordering: .relaxed) + count, ordering: .releasing)
    }

    /// Consumer: steps back over `count` samples already read (at most `reserve`, and never
    /// before the first sample), which become readable again, unchanged.
    func unconsume(_ count: Int) {
        let read = readIndex.load(ordering: .relaxed)
        precondition(count >= 0 && count <= reserve && count <= read)
        readIndex.store(read - count, ordering: .releasing)
    }
}
