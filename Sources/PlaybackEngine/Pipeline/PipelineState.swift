import Synchronization
import SystemSupport

/// Flags shared by the event loop and one pipeline's decoder and output threads.
/// Every field is an atomic, except `cutShortReason`, behind a lock that the output thread
/// never takes.
final class PipelineState: @unchecked Sendable {
    enum DecoderEnd: Int {
        case running = 0
        /// Every upcoming item was decoded.
        case endOfQueue = 1
        /// The next item needs another device format: a new pipeline starts with it.
        case formatChange = 2
    }

    enum Outcome: Int {
        case running = 0
        /// Everything decoded was played out.
        case finished = 1
        /// Stopped on request; the device buffer was dropped.
        case halted = 2
        /// The device failed; `failure` says how.
        case failed = 3
    }

    /// A pause in place (`Pipeline.suspend`), from the request to the output thread's answer
    /// and on until the resume.
    enum Suspension: Int {
        case none = 0
        /// Asked by the event loop; the output thread answers with one of the next two.
        case requested = 1
        /// The output thread paused the device where it plays (or dropped its buffer and
        /// stepped the ring back to the sample heard last), and waits for `none` (a resume) or
        /// a halt.
        case suspended = 2
        /// The output thread could not pause in place and plays on: the event loop halts.
        case declined = 3
    }

    let haltRequested = Atomic<Bool>(false)
    let suspension = Atomic<Int>(Suspension.none.rawValue)
    /// The output thread should fade out what follows the device's buffer, drain and end.
    let fadeRequested = Atomic<Bool>(false)
    /// The output thread should take back what the device holds beyond the next few
    /// milliseconds, fade out over them and end, leaving the device running (`Pipeline.splice`).
    let spliceRequested = Atomic<Bool>(false)
    let decoderEnd = Atomic<Int>(DecoderEnd.running.rawValue)
    /// With `.formatChange`: the item that did not fit (stored before `decoderEnd`).
    let formatChangeItem = Atomic<UInt64>(0)
    let outputWaitingForData = Atomic<Bool>(false)
    let decoderWaitingForSpace = Atomic<Bool>(false)
    let outcome = Atomic<Int>(Outcome.running.rawValue)
    /// Set once by the output thread when the device has shown progress (played frames grew):
    /// before that the clock does not extrapolate, since a device may take a while to start.
    let isAudible = Atomic<Bool>(false)
    /// Set with `isAudible`, taken by the event loop to announce the start.
    let becameAudible = Atomic<Bool>(false)
    /// Set by the output thread when it starts writing a new item's samples.
    let segmentStarted = Atomic<Bool>(false)
    /// Items after the first that could not be opened and were passed over.
    let skippedItems = Atomic<Int>(0)
    /// Items whose decoding failed part-way (the decoder thread counts; the engine reports).
    let itemsCutShort = Atomic<Int>(0)
    /// Why the last of them failed (the decoder thread writes; the engine reports).
    let cutShortReason = Locked<DecoderError?>(nil)
    /// Set by the output thread once the device is open with the pipeline's format (at once
    /// when it already was): from then on the event loop may read the sink's properties, and a
    /// halt waits for the output thread.
    let deviceReady = Atomic<Bool>(false)
    /// Set with `deviceReady` when this pipeline's output thread opened the device itself;
    /// taken by the event loop to announce it.
    let deviceOpened = Atomic<Bool>(false)
    /// Whether `failure` happened while opening the device (nothing was written).
    let failedOpening = Atomic<Bool>(false)
    /// Set by the event loop when it halts the pipeline while the device is still opening and
    /// leaves the output thread to end by itself: the thread closes the device when it ends.
    let closesDevice = Atomic<Bool>(false)
    /// Set by the output thread once it has published where it stopped, before it drops the
    /// device's buffer or closes it: a halt waits for this, not for the drop.
    let stopPublished = Atomic<Bool>(false)
    /// Written once by the output thread before it publishes `.failed` (release).
    nonisolated(unsafe) var failure: SinkError?

    var decoderEndValue: DecoderEnd { DecoderEnd(rawValue: decoderEnd.load(ordering: .acquiring))! }
    var outcomeValue: Outcome { Outcome(rawValue: outcome.load(ordering: .acquiring))! }
    var isHaltRequested: Bool { haltRequested.load(ordering: .acquiring) }
    var suspensionValue: Suspension { Suspension(rawValue: suspension.load(ordering: .acquiring))! }
    /// Whether the suspension is `state`, compared as its raw value: the output thread asks
    /// this, and an enum's `==` looks its conformance up at first use, which in a debug build
    /// instantiates it (an allocation, caught once on the output thread by the real-time test).
    func isSuspension(_ state: Suspension) -> Bool { suspension.load(ordering: .acquiring) == state.rawValue }
    /// Whether the decoder's end is `end`, compared as its raw value (as `isSuspension`).
    func isDecoderEnd(_ end: DecoderEnd) -> Bool { decoderEnd.load(ordering: .acquiring) == end.rawValue }
}
