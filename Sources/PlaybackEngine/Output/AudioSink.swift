import SystemSupport

/// Why the output device failed: the snapshot's `deviceError` says it while playback is
/// `interrupted`.
public struct SinkError: Error, Equatable, CustomStringConvertible {
    public var function: String
    public var code: Int32
    public var reason: String
    /// The device exists but cannot play the requested format (as opposed to a device that
    /// is missing, busy or gone).
    public var isUnsupportedFormat: Bool

    public init(function: String, code: Int32, reason: String, isUnsupportedFormat: Bool = false) {
        self.function = function
        self.code = code
        self.reason = reason
        self.isUnsupportedFormat = isUnsupportedFormat
    }

    public var description: String { "\(function): \(reason)" }
}

/// An audio output device. Opened by a pipeline's output thread and closed by it or by a
/// thread of its own (`DeviceWork`), one at a time, never by the event loop, which may wait
/// for neither. While one runs, only that thread calls `write`, `waitWritable`, `delay`,
/// `drain` and `drop`; the event loop reads the open device's properties once the output
/// thread said it is open (`PipelineState.deviceReady`).
public protocol AudioSink: AnyObject, SendableMetatype {
    /// The format the device is open with; nil when closed.
    var openFormat: AudioFormat? { get }
    /// Frames per period of the open device (how much one wake-up moves).
    var periodFrames: Int { get }
    /// Human-readable device name (for logs and errors).
    var deviceName: String { get }
    /// Whether the open device is a stream to a sound server (through an ALSA external I/O
    /// plugin: PulseAudio, PipeWire, JACK; or the daemon's own libpulse stream).
    var isServerStream: Bool { get }
    /// Whether the open device is closed at a pause rather than held for the hold time: a
    /// stream through an ALSA external I/O plugin, whose client library's thread keeps waking
    /// the daemon while it is held (PulseAudio's: about 1.7 times a second), and which opens
    /// again in under a millisecond.
    var closesAtPause: Bool { get }
    /// The sound card and PCM device number behind the open device when it is a card's own
    /// (`hw:`, `plughw:`); nil for a sound server's stream, a file, or a closed device.
    var hardwareDevice: HardwareDevice? { get }
    /// Underruns recovered since the device was opened: counted by the output thread, read by
    /// the event loop (any thread).
    var recoveredXruns: Int { get }
    func open(_ format: AudioFormat) throws(SinkError)
    /// Writes whole frames of the open format's samples without blocking; returns frames
    /// accepted (0 when the buffer is full). Recovers from xruns with a bounded number of retries.
    func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int
    /// Sleeps until the device can take more data or `wake` is signalled.
    /// Returns false when woken by `wake`, whose signal it consumes; throws when the device
    /// has gone away.
    func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool
    /// Frames written but not yet heard.
    func delay() -> Int
    /// Plays out what is buffered, then stops the stream.
    func drain()
    /// Discards what is buffered and makes the device ready for new data.
    func drop()
    func close()
    /// Whether audio written but not heard yet can be replaced (`rewind`): then a change of
    /// the sound settings is heard at once, not after the buffer.
    var canRewrite: Bool { get }
    /// Whether the device may be able to replace what it holds once it is open, asked before
    /// it is: a pipeline keeps room for the history a rewrite needs when it may.
    var mayRewrite: Bool { get }
    /// The most audio the open device holds, in microseconds: how much played audio a
    /// pipeline keeps to process again after a `rewind`. 0 when the device cannot rewind.
    var rewindableMicroseconds: Int { get }
    /// The frames written that the device has not taken to play yet, asked of it now: how far
    /// `rewind` may go back. 0 when the device cannot replace audio. Output thread only.
    func rewritableFrames() -> Int
    /// Moves the write position back by `frames`, at most `rewritableFrames()`: the next
    /// writes replace what was written from there on. Returns the frames moved back (0 when
    /// the device cannot). Output thread only.
    func rewind(_ frames: Int) -> Int
    /// Pauses the open device where it plays, keeping what it holds, or (`paused` false) plays
    /// on from there; whether it did (a device that cannot, or that is not playing, did not).
    /// Output thread only.
    func pauseKeepingBuffer(_ paused: Bool) -> Bool
    /// The most audio the device holds (its buffer, in microseconds) when it cannot pause where
    /// it plays and a pause keeps the pipeline in place (`PlaybackEngine.pause`): the pause drops
    /// it, and the ring keeps that much behind its read position to write it again. 0 when the
    /// device keeps its buffer through a pause (`pauseKeepingBuffer`), or a pause halts the
    /// pipeline (a device closed at a pause, or one that replaces what it holds instead). Asked
    /// before the device is open too.
    var replayedAfterPauseMicroseconds: Int { get }
    /// Whether the device can come back by itself after it failed (a server across the network
    /// restarted): then the player tries it again with a growing delay.
    var reconnects: Bool { get }
    /// Whether the device says itself when it starts playing (`hasStartedPlaying`). When it
    /// does not, the output loop infers the start from the delay's progress (`StartDetector`).
    var reportsStart: Bool { get }
    /// Whether the device is playing what was written, asked of it now. Meaningful where
    /// `reportsStart`. Output thread only.
    func hasStartedPlaying() -> Bool
}

extension AudioSink {
    public var canRewrite: Bool { false }
    public var mayRewrite: Bool { canRewrite }
    public var rewindableMicroseconds: Int { 0 }
    public func rewritableFrames() -> Int { 0 }
    public func rewind(_ frames: Int) -> Int { 0 }
    public var replayedAfterPauseMicroseconds: Int { 0 }
    public func pauseKeepingBuffer(_ paused: Bool) -> Bool { false }
    public var reportsStart: Bool { false }
    public func hasStartedPlaying() -> Bool { false }
    public var reconnects: Bool { false }
    public var closesAtPause: Bool { false }
}

/// An ALSA card's PCM device: what a jack watcher needs to know which card to watch.
public struct HardwareDevice: Sendable, Equatable {
    /// The card index (`hw:CARD`).
    public var card: Int
    /// The PCM device number on the card (`hw:CARD,DEVICE`).
    public var device: Int

    public init(card: Int, device: Int) {
        self.card = card
        self.device = device
    }
}
