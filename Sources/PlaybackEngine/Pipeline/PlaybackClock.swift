import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The output thread's latest measurement, published through a sequence lock so the event
/// loop reads a consistent triple without the output thread ever waiting.
///
/// Played samples = `samplesWritten - delayFrames * channels`, as of `monotonicNanos`.
final class PlaybackClock: @unchecked Sendable {
    struct Reading {
        var samplesWritten: Int
        var delayFrames: Int
        var monotonicNanos: UInt64
    }

    private let sequence = Atomic<UInt64>(0)
    private let samples = Atomic<Int>(0)
    private let delay = Atomic<Int>(0)
    private let nanos = Atomic<UInt64>(0)

    init() { publish(samplesWritten: 0, delayFrames: 0) }

    /// Output thread only. Returns the timestamp it recorded.
    @discardableResult
    func publish(samplesWritten: Int, delayFrames: Int) -> UInt64 {
        let now = Self.monotonicNow()
        let start = sequence.load(ordering: .relaxed) &+ 1
        sequence.store(start, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        samples.store(samplesWritten, ordering: .relaxed)
        delay.store(delayFrames, ordering: .relaxed)
        nanos.store(now, ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .releasing)
        return now
    }

    /// Any thread; retries while a publish is in progress.
    func read() -> Reading {
        while true {
            let before = sequence.load(ordering: .acquiring)
            let reading = Reading(
                samplesWritten: samples.load(ordering: .relaxed),
                delayFrames: delay.load(ordering: .relaxed),
                monotonicNanos: nanos.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0 && before == sequence.load(ordering: .relaxed) { return reading }
        }
    }

    static func monotonicNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
