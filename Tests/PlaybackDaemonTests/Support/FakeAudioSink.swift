import PlaybackEngine
import Synchronization
import SystemSupport

/// An output device that plays nothing: it takes frames at once until its buffer of
/// `capacityFrames` is full, and then makes no progress (its output thread sleeps until woken),
/// so a pipeline's position stays within one buffer of where it started. For driving the
/// service and the engine in-process. It can refuse to open.
final class FakeAudioSink: AudioSink, @unchecked Sendable {
    let deviceName = "fake"
    private(set) var openFormat: AudioFormat?
    let periodFrames = 1_024
    let isServerStream = false
    let hardwareDevice: HardwareDevice? = nil
    let recoveredXruns = 0
    /// How many frames the device holds before it stops taking more.
    let capacityFrames = 44_100
    /// Whether `open` fails as a missing device does.
    var isMissing = false
    /// Frames taken since the device was opened or its buffer dropped (output thread).
    private let buffered = Atomic<Int>(0)

    func open(_ format: AudioFormat) throws(SinkError) {
        guard !isMissing else { throw SinkError(function: "open", code: -2, reason: "no such device") }
        openFormat = format
        buffered.store(0, ordering: .relaxed)
    }

    func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int {
        let room = capacityFrames - buffered.load(ordering: .relaxed)
        let frames = min(room, samples.count / (openFormat?.frameBytes ?? 4))
        buffered.add(frames, ordering: .relaxed)
        return frames
    }

    func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool {
        guard buffered.load(ordering: .relaxed) >= capacityFrames else { return true }
        wake.wait()
        wake.reset()
        return false
    }

    func delay() -> Int { 0 }
    func drain() {}
    func drop() { buffered.store(0, ordering: .relaxed) }
    func close() { openFormat = nil }
}
