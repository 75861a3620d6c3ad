import PlaybackEngine
import Synchronization
import SystemSupport

/// An output device that takes every frame at once and plays nothing: for driving the
/// service and the engine in-process. It counts what it was given, and can refuse to open.
final class FakeAudioSink: AudioSink, @unchecked Sendable {
    let deviceName = "fake"
    private(set) var openFormat: AudioFormat?
    let periodFrames = 1_024
    let recoveredXruns = 0
    /// Whether `open` fails as a missing device does.
    var isMissing = false
    /// Frames written since the sink was made (written by the output thread).
    let framesWritten = Atomic<Int>(0)

    func open(_ format: AudioFormat) throws(SinkError) {
        guard !isMissing else { throw SinkError(function: "open", code: -2, reason: "no such device") }
        openFormat = format
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(SinkError) -> Int {
        let frames = samples.count / (openFormat?.channels ?? 2)
        framesWritten.add(frames, ordering: .relaxed)
        return frames
    }

    func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool { true }
    func delay() -> Int { 0 }
    func drain() {}
    func drop() {}
    func close() { openFormat = nil }
}
