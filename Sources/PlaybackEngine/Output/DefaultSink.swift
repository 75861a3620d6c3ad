import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The `default` device: a stream of its own to the sound server when one is running
/// (`PulseSink`, whose buffer can be rewritten, so changes are heard at once), else ALSA's
/// `default` PCM. Decided at each `open`, so a sound server that starts after the daemon is
/// used from the next play on. libpulse is not loaded unless the server's socket is there.
public final class DefaultSink: AudioSink, @unchecked Sendable {
    public let deviceName = "default"
    private let server = PulseSink(deviceName: PulseSink.scheme)
    private let alsa = ALSASink(deviceName: "default")
    /// The backend opened last.
    private var current: any AudioSink

    public init() { current = alsa }

    /// Whether a server speaking PulseAudio's protocol can be reached: `PULSE_SERVER`, or the
    /// socket in the runtime directory (PulseAudio's, or pipewire-pulse's).
    static func serverIsRunning(_ environment: Environment = .process) -> Bool {
        if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return access(runtime + "/pulse/native", F_OK) == 0
    }

    public func open(_ format: AudioFormat) throws(SinkError) {
        close()
        if Self.serverIsRunning() {
            do {
                try server.open(format)
                current = server
                return
            } catch  where error.isUnsupportedFormat {
                throw error
            } catch {}
        }
        current = alsa
        try alsa.open(format)
    }

    public var openFormat: AudioFormat? { current.openFormat }
    public var periodFrames: Int { current.periodFrames }
    public var isServerStream: Bool { current.isServerStream }
    public var closesAtPause: Bool { current.closesAtPause }
    public var hardwareDevice: HardwareDevice? { current.hardwareDevice }
    public var recoveredXruns: Int { current.recoveredXruns }
    public var canRewrite: Bool { current.canRewrite }
    /// The server's stream can, when a server runs (`open` decides).
    public var mayRewrite: Bool { Self.serverIsRunning() }
    public var rewindableMicroseconds: Int { server.rewindableMicroseconds }
    public var replayedAfterPauseMicroseconds: Int { current.replayedAfterPauseMicroseconds }
    public func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int { try current.write(samples) }
    public func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool {
        try current.waitWritable(orWake: wake)
    }
    public func delay() -> Int { current.delay() }
    public func rewritableFrames() -> Int { current.rewritableFrames() }
    public func rewind(_ frames: Int) -> Int { current.rewind(frames) }
    public var reportsStart: Bool { current.reportsStart }
    public func hasStartedPlaying() -> Bool { current.hasStartedPlaying() }
    public func pauseKeepingBuffer(_ paused: Bool) -> Bool { current.pauseKeepingBuffer(paused) }
    public func drain() { current.drain() }
    public func drop() { current.drop() }
    public func close() {
        server.close()
        alsa.close()
    }
}
