import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Work on the device that goes on after the event loop has moved on: its opening, its
/// closing, or a halted pipeline's output thread still dropping its buffer or opening it (that
/// thread closes it again and ends by itself once the open returns). Opening a device can take a network round trip
/// (a sound server, a snapserver) or never return (a FIFO nobody reads): the event loop never
/// waits for it. Whatever uses the device next (an output thread, the next closing) waits for
/// the work before it first (`wait`), off the event loop, so that the sink has one user at a
/// time: each work is waited for exactly once, by the one that follows it, or by the engine at
/// the exit (`PlaybackEngine.waitForDevice`).
final class DeviceWork: @unchecked Sendable {
    private let thread: NamedThread
    private let finished: @Sendable () -> Bool
    /// What the thread works in (a halted pipeline, its buffers), kept until the thread is
    /// joined and then let go on the event loop (`releaseKeptIfJoined`): each pipeline holds
    /// the work it waited for, so holding it longer would keep every pipeline before.
    private var keeping: AnyObject?
    /// Set once `wait` has joined the thread.
    private let joined = Atomic<Bool>(false)
    /// An opening's or a closing's result.
    private let outcome: Outcome?

    private init(
        thread: NamedThread, finished: @escaping @Sendable () -> Bool, keeping: AnyObject?, outcome: Outcome? = nil
    ) {
        self.thread = thread
        self.finished = finished
        self.keeping = keeping
        self.outcome = outcome
    }

    /// A halted pipeline's output thread, ending by itself (dropping the device's buffer, or
    /// closing a device it was still opening): `finished` says when it has.
    static func outputThread(_ thread: NamedThread, keeping: AnyObject, finished: @escaping @Sendable () -> Bool)
        -> DeviceWork
    {
        DeviceWork(thread: thread, finished: finished, keeping: keeping)
    }

    /// Closes `sink` on a thread of its own, after `previous`.
    static func closing(_ sink: any AudioSink, after previous: DeviceWork?) -> DeviceWork {
        let outcome = Outcome()
        let work = UncheckedSendable((sink, previous))
        let thread = NamedThread(name: "pbd-device") {
            work.value.1?.wait()
            work.value.0.close()
            outcome.done.store(true, ordering: .releasing)
        }
        return DeviceWork(
            thread: thread, finished: { outcome.done.load(ordering: .acquiring) }, keeping: nil, outcome: outcome)
    }

    /// Opens `sink` with `format` on a thread of its own, after `previous`; `failure` says
    /// how it went once waited for. (Not on the output thread, which must not allocate: an
    /// open does.)
    static func opening(_ sink: any AudioSink, _ format: AudioFormat, after previous: DeviceWork?) -> DeviceWork {
        let outcome = Outcome()
        let work = UncheckedSendable((sink, previous))
        let thread = NamedThread(name: "pbd-device") {
            work.value.1?.wait()
            do throws(SinkError) {
                try work.value.0.open(format)
            } catch {
                outcome.failure = error
                outcome.failed = true
            }
            outcome.done.store(true, ordering: .releasing)
        }
        return DeviceWork(
            thread: thread, finished: { outcome.done.load(ordering: .acquiring) }, keeping: nil, outcome: outcome)
    }

    /// What the work's thread leaves: the failure is written before `done` (release).
    private final class Outcome: @unchecked Sendable {
        let done = Atomic<Bool>(false)
        var failed = false
        var failure: SinkError?
    }

    /// Whether the work failed, after `wait` (an opening). Read without touching `failure`:
    /// the output thread asks on every start, and the first use of an optional `SinkError`
    /// there instantiated its metadata (an allocation, which the real-time test caught).
    var failed: Bool { outcome?.failed ?? false }

    /// The device's error, after `wait` (an opening's; nil when it succeeded).
    var failure: SinkError? { outcome?.failure }

    /// Whether the work is done (its thread may still be returning).
    var isFinished: Bool { finished() }

    /// Waits until the work is done. Called once, by whatever uses the device next.
    func wait() {
        thread.join()
        joined.store(true, ordering: .releasing)
    }

    /// Lets go of what the thread worked in once it has been joined; event loop only (the
    /// last release of a pipeline frees its buffers, which the output thread must not do).
    func releaseKeptIfJoined() {
        if joined.load(ordering: .acquiring) { keeping = nil }
    }

    /// Waits at most `timeout` seconds; whether the work ended. Work that did not is left to
    /// end by itself (the process is exiting).
    func wait(timeout: Double) -> Bool {
        var left = timeout
        while !isFinished && left > 0 {
            usleep(5_000)
            left -= 0.005
        }
        guard isFinished else {
            thread.detach()
            return false
        }
        wait()
        return true
    }
}

/// What a pipeline's output thread waits for before it plays: the device's work before it
/// (`after`), then the device opened with `format` (nil: it is open with the right one).
struct DeviceOpening {
    let format: AudioFormat?
    let after: DeviceWork?
}
