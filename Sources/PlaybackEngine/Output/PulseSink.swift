import CPulseShim
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Playback straight to a sound server that speaks PulseAudio's protocol (PulseAudio, or
/// PipeWire through pipewire-pulse), through libpulse, on the device named `pulseaudio` (the
/// server's default sink) or `pulseaudio:SINK`.
///
/// What ALSA's `pulse` plugin cannot do, this can: replace audio it wrote and the server has
/// not read yet (`rewind`, libpulse's seek-relative write). So the engine keeps the 1 s buffer
/// and still makes a change of volume or equalizer heard within 100 ms. The stream runs on a libpulse main loop of its own, iterated by whichever thread
/// calls (the event loop while opening, the output thread while playing), never by two
/// at a time; libpulse is loaded when the first stream opens.
public final class PulseSink: AudioSink, @unchecked Sendable {
    /// The device name's scheme: `pulseaudio`, or `pulseaudio:SINK`.
    public static let scheme = "pulseaudio"
    /// The stream's target length: the same 1 s as `ALSASink`'s buffer.
    public static let bufferMicroseconds = 1_000_000
    /// The stream's request size. The server sets the sink's own latency to half of what the
    /// target length leaves beyond two requests ((1 s - 2 x 475 ms) / 2 = 25 ms), and what the
    /// sink has read cannot be rewritten (`rewritableFrames`); so long requests keep both the
    /// sink's latency and the output thread's wake-ups low (2.1 a second), while the stream
    /// still never holds less than 525 ms.
    public static let periodMicroseconds = 475_000
    /// What the stream holds before the server starts it (prebuf): not the whole buffer (the
    /// default), so that an item shorter than a second starts without waiting for its drain.
    static let startMicroseconds = 100_000

    /// Whether `deviceName` names this backend.
    public static func names(_ deviceName: String) -> Bool {
        deviceName == scheme || deviceName.hasPrefix(bytes: scheme + ":")
    }

    public let deviceName: String
    public private(set) var openFormat: AudioFormat?
    public private(set) var periodFrames = 0
    public var isServerStream: Bool { openFormat != nil }
    public var hardwareDevice: HardwareDevice? { nil }
    public var canRewrite: Bool { openFormat != nil }
    public var mayRewrite: Bool { true }
    public var rewindableMicroseconds: Int { Self.bufferMicroseconds }
    public var recoveredXruns: Int { underruns.load(ordering: .relaxed) }

    /// The sink to play on; nil for the server's default.
    private let sinkName: String?
    private var mainloop: OpaquePointer?
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var frameBytes = 0
    /// Bytes the next write goes back before it writes (negative: `rewind`).
    private var seekBytes: Int64 = 0
    /// Frames written since the stream opened: the delay until the server's first timing reply.
    private var writtenFrames = 0
    /// Whether `drain` runs (the stream running out is then no underrun).
    private var isDraining = false
    /// Whether `drop` corked the stream: the next write uncorks it.
    private var isCorked = false
    /// The server's read index (bytes) when `drop` emptied the stream: the sink has played
    /// what was written since once it reads past it.
    private var droppedAtIndex: Int64 = 0
    private let poll = PulsePoll()
    /// Underruns the server reported: counted on the output thread, read by the event loop.
    private let underruns = Atomic<Int>(0)

    public init(deviceName: String) {
        self.deviceName = deviceName
        let sink = deviceName.dropFirst(Self.scheme.count + 1)
        sinkName = sink.isEmpty ? nil : String(sink)
    }

    deinit { close() }

    public func open(_ format: AudioFormat) throws(SinkError) {
        close()
        guard playbackd_pulse_load() == 1 else {
            throw SinkError(function: "dlopen", code: -ENOENT, reason: "libpulse.so.0 cannot be loaded")
        }
        guard let loop = playbackd_pa_mainloop_new() else {
            throw SinkError(function: "pa_mainloop_new", code: -ENOMEM, reason: "out of memory")
        }
        mainloop = loop
        playbackd_pa_mainloop_set_poll_func(loop, pulsePoll, Unmanaged.passUnretained(poll).toOpaque())
        do {
            try connect(loop)
            try openStream(format)
        } catch {
            close()
            throw error
        }
        openFormat = format
        periodFrames = format.sampleRate * Self.periodMicroseconds / 1_000_000
        underruns.store(0, ordering: .relaxed)
    }

    /// Connects to the server the pulse plugin would use (`PULSE_SERVER`, or the runtime
    /// directory's socket), never starting one.
    private func connect(_ loop: OpaquePointer) throws(SinkError) {
        guard let context = playbackd_pa_context_new(playbackd_pa_mainloop_get_api(loop), "playbackd") else {
            throw SinkError(function: "pa_context_new", code: -ENOMEM, reason: "out of memory")
        }
        self.context = context
        guard playbackd_pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw contextError("pa_context_connect", code: -ENODEV)
        }
        while playbackd_pa_context_get_state(context) != PA_CONTEXT_READY {
            do { try iterate(blocking: true) } catch { throw contextError("pa_context_connect", code: -ENODEV) }
        }
    }

    private func openStream(_ format: AudioFormat) throws(SinkError) {
        guard let context else { return }
        var spec = pa_sample_spec(
            format: format.sampleFormat == .s32 ? PA_SAMPLE_S32LE : PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate),
            channels: UInt8(format.channels))
        frameBytes = format.frameBytes
        // The engine's channels are in WAVE order (`ChannelOrder`); libpulse's default map for
        // more than two channels is another one.
        var map = pa_channel_map()
        playbackd_pa_channel_map_init_extend(&map, UInt32(format.channels), PA_CHANNEL_MAP_WAVEEX)
        guard let stream = playbackd_pa_stream_new(context, "Music", &spec, &map) else {
            throw SinkError(
                function: "pa_stream_new", code: -EINVAL, reason: "cannot play \(format)", isUnsupportedFormat: true)
        }
        self.stream = stream
        let bytesPerSecond = format.sampleRate * frameBytes
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(bytesPerSecond * Self.bufferMicroseconds / 1_000_000),
            prebuf: UInt32(bytesPerSecond * Self.startMicroseconds / 1_000_000),
            minreq: UInt32(bytesPerSecond * Self.periodMicroseconds / 1_000_000),
            fragsize: UInt32.max)
        let flags = PA_STREAM_AUTO_TIMING_UPDATE
        playbackd_pa_stream_set_underflow_callback(
            stream, { _, me in Unmanaged<PulseSink>.fromOpaque(me!).takeUnretainedValue().countUnderrun() },
            Unmanaged.passUnretained(self).toOpaque())
        guard playbackd_pa_stream_connect_playback(stream, sinkName, &attributes, flags, nil, nil) >= 0 else {
            throw contextError("pa_stream_connect_playback", code: -ENODEV)
        }
        while playbackd_pa_stream_get_state(stream) != PA_STREAM_READY {
            do { try iterate(blocking: true) } catch {
                throw contextError("pa_stream_connect_playback", code: -ENODEV)
            }
        }
        seekBytes = 0
        writtenFrames = 0
        (isCorked, droppedAtIndex) = (false, 0)
        // The output thread compares an operation's state in `wait(for:)`: the first
        // comparison makes the Swift runtime build the C enum's metadata (an allocation).
        _ = PA_OPERATION_RUNNING == PA_OPERATION_DONE
    }

    public func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int {
        guard let stream, let base = samples.baseAddress else {
            throw SinkError(function: "pa_stream_write", code: -EBADFD, reason: "device is closed")
        }
        var writable = playbackd_pa_stream_writable_size(stream)
        if writable < frameBytes && seekBytes == 0 {
            try iterate(blocking: false)
            writable = playbackd_pa_stream_writable_size(stream)
        }
        // (size_t)-1: the stream failed.
        guard writable >= 0 else { throw streamFailure("pa_stream_writable_size") }
        // A rewrite replaces what was written: it may go as far as it went back, even into a
        // full buffer (libpulse counts the seek and the data together).
        writable += Int(-seekBytes)
        let bytes = min(writable / frameBytes, samples.count / frameBytes) * frameBytes
        guard bytes > 0 else { return 0 }
        guard playbackd_pa_stream_write(stream, base, bytes, nil, seekBytes, PA_SEEK_RELATIVE) == 0 else {
            throw streamFailure("pa_stream_write")
        }
        seekBytes = 0
        writtenFrames += bytes / frameBytes
        if isCorked {
            isCorked = false
            forget(playbackd_pa_stream_cork(stream, 0, nil, nil))
        }
        return bytes / frameBytes
    }

    public func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool {
        guard let stream else {
            throw SinkError(function: "pa_mainloop_iterate", code: -EBADFD, reason: "device is closed")
        }
        poll.wakeDescriptor = wake.fileDescriptor
        poll.woke = false
        defer { poll.wakeDescriptor = -1 }
        while true {
            if playbackd_pa_stream_writable_size(stream) >= frameBytes { return true }
            try iterate(blocking: true)
            if poll.woke {
                // Consume the wake-up, or every later wait would return at once and spin.
                wake.reset()
                return false
            }
        }
    }

    /// From the server's last timing reply (one comes each second, and with every fresh
    /// question) and the time since, as libpulse computes a stream's time, but without its
    /// smoother: that follows a jump (a start after a sink played out what it had rendered
    /// ahead) over a second or more, and a start anchored on it was measured a second early.
    public func delay() -> Int {
        guard let stream, let format = openFormat else { return 0 }
        try? iterate(blocking: false)
        // Until the server's first timing reply, nothing has been played.
        guard let timing = playbackd_pa_stream_get_timing_info(stream)?.pointee,
            timing.write_index_corrupt == 0, timing.read_index_corrupt == 0
        else { return writtenFrames }
        var now = timeval()
        gettimeofday(&now, nil)
        let sinceReply =
            timing.playing == 0
            ? 0 : max(0, (now.tv_sec - timing.timestamp.tv_sec) * 1_000_000 + (now.tv_usec - timing.timestamp.tv_usec))
        let read = Int(timing.read_index) / frameBytes
        let heard = read - (Int(timing.sink_usec) - sinceReply) * format.sampleRate / 1_000_000
        return max(0, Int(timing.write_index) / frameBytes - max(0, heard))
    }

    public func rewritableFrames() -> Int {
        guard let stream, let format = openFormat else { return 0 }
        // A fresh reading (one round trip): the interpolated latency lags by tens of
        // milliseconds here, and a rewrite that begins where the sink has already read loses
        // its start (the crossfade into the new settings: a click). What the sink has read
        // but not played is left alone: a sink can rewind it, but one that has passed it on
        // already (a null sink's monitor, a network sink) cannot take it back. A sink reads
        // in steps of up to its latency, so that much past the read position may be gone by
        // the time the rewrite arrives: it is left alone too. The sink's latency is kept
        // short (`periodMicroseconds`).
        // A server slow to answer (a busy machine) is as slow to take the rewrite, and reads on
        // meanwhile: twice the round trip is left alone as well.
        let asked = PlaybackClock.monotonicNow()
        wait(for: playbackd_pa_stream_update_timing_info(stream, nil, nil))
        let roundTrip = Int(PlaybackClock.monotonicNow() &- asked)
        guard let timing = playbackd_pa_stream_get_timing_info(stream)?.pointee,
            timing.write_index_corrupt == 0, timing.read_index_corrupt == 0
        else { return 0 }
        let sinkStep = Int(timing.configured_sink_usec) * format.sampleRate / 1_000_000
        let slack = 2 * roundTrip / 1000 * format.sampleRate / 1_000_000
        return max(0, Int(timing.write_index - timing.read_index) / frameBytes - sinkStep - slack)
    }

    public var reportsStart: Bool { openFormat != nil }

    /// The server's own word, from a fresh timing reply (one round trip): it passes the
    /// stream's data to the sink, and the sink has read some. The latency alone cannot tell: a
    /// sink that had rendered ahead (a null sink, up to 2 s) takes that back as the stream's
    /// data arrives, and the shrinking latency looks like progress while nothing plays.
    public func hasStartedPlaying() -> Bool {
        guard let stream else { return false }
        wait(for: playbackd_pa_stream_update_timing_info(stream, nil, nil))
        guard let timing = playbackd_pa_stream_get_timing_info(stream)?.pointee, timing.read_index_corrupt == 0
        else { return false }
        return timing.playing != 0 && timing.read_index > droppedAtIndex
    }

    public func rewind(_ frames: Int) -> Int {
        guard stream != nil, frames > 0 else { return 0 }
        seekBytes -= Int64(frames * frameBytes)
        return frames
    }

    public func drain() {
        guard let stream else { return }
        // The server says "underflow" when a drained stream runs out: that is its end.
        isDraining = true
        wait(for: playbackd_pa_stream_drain(stream, nil, nil))
        isDraining = false
    }

    /// Corks the stream (a stream held paused leaves the sink free to suspend, and plays
    /// nothing until the next write) and empties it, in one round trip.
    public func drop() {
        guard let stream else { return }
        seekBytes = 0
        isCorked = true
        forget(playbackd_pa_stream_cork(stream, 1, nil, nil))
        forget(playbackd_pa_stream_flush(stream, nil, nil))
        wait(for: playbackd_pa_stream_update_timing_info(stream, nil, nil))
        if let timing = playbackd_pa_stream_get_timing_info(stream)?.pointee, timing.read_index_corrupt == 0 {
            droppedAtIndex = timing.read_index
        }
    }

    public func close() {
        if let stream {
            playbackd_pa_stream_set_underflow_callback(stream, nil, nil)
            playbackd_pa_stream_disconnect(stream)
            playbackd_pa_stream_unref(stream)
        }
        if let context {
            playbackd_pa_context_disconnect(context)
            playbackd_pa_context_unref(context)
        }
        if let mainloop { playbackd_pa_mainloop_free(mainloop) }
        stream = nil
        context = nil
        mainloop = nil
        openFormat = nil
    }

    /// Lets `operation` complete on its own: its result is not waited for.
    private func forget(_ operation: OpaquePointer?) {
        if let operation { playbackd_pa_operation_unref(operation) }
    }

    /// Runs the main loop until `operation` completes or the stream fails.
    private func wait(for operation: OpaquePointer?) {
        guard let operation else { return }
        while playbackd_pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            do { try iterate(blocking: true) } catch { break }
        }
        playbackd_pa_operation_unref(operation)
    }

    /// One pass of the main loop (waiting for something to happen when `blocking`); throws
    /// when the connection or the stream has failed (the server went away).
    private func iterate(blocking: Bool) throws(SinkError) {
        guard let mainloop else {
            throw SinkError(function: "pa_mainloop_iterate", code: -EBADFD, reason: "device is closed")
        }
        // The server gone (killed, restarted) is a failure to retry, as with ALSA's plugin; the
        // stream ended by the server while the connection stays (killed by a mixer, its sink
        // gone with nowhere to move) is the device going away.
        if playbackd_pa_mainloop_iterate(mainloop, blocking ? 1 : 0, nil) < 0 {
            throw SinkError(function: "pa_mainloop_iterate", code: -ECONNRESET, reason: "sound server connection lost")
        }
        if let context, Self.hasEnded(playbackd_pa_context_get_state(context)) {
            throw contextError("pa_context_get_state", code: -ECONNRESET)
        }
        if let stream, Self.hasEnded(playbackd_pa_stream_get_state(stream)) {
            throw contextError("pa_stream_get_state", code: -ENODEV)
        }
    }

    private static func hasEnded(_ state: pa_context_state_t) -> Bool {
        state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
    }

    private static func hasEnded(_ state: pa_stream_state_t) -> Bool {
        state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED
    }

    /// Why the stream stopped working: the connection lost (`-ECONNRESET`), or the stream
    /// ended by the server (`-ENODEV`).
    private func streamFailure(_ function: String) -> SinkError {
        let connected = context.map { playbackd_pa_context_get_state($0) == PA_CONTEXT_READY } ?? false
        return contextError(function, code: connected ? -ENODEV : -ECONNRESET)
    }

    private func contextError(_ function: String, code: Int32) -> SinkError {
        let reason = context.map { String(cString: playbackd_pa_strerror(playbackd_pa_context_errno($0))) }
        return SinkError(function: function, code: code, reason: reason ?? "no connection")
    }

    private func countUnderrun() {
        if !isDraining { underruns.add(1, ordering: .relaxed) }
    }
}

/// The poll that libpulse's main loop calls, with the engine's wake-up descriptor added while
/// the output thread waits for room (`PulseSink.waitWritable`): a pause or seek is never kept
/// waiting for the server. Preallocated: the output thread does not allocate here.
private final class PulsePoll: @unchecked Sendable {
    static let capacity = 32
    let descriptors = UnsafeMutablePointer<pollfd>.allocate(capacity: PulsePoll.capacity)
    /// The descriptor to add (-1: none).
    var wakeDescriptor: Int32 = -1
    /// Whether it became readable in the last poll.
    var woke = false

    deinit { descriptors.deallocate() }
}

private let pulsePoll: pa_poll_func = { descriptors, count, timeout, userdata in
    let hook = Unmanaged<PulsePoll>.fromOpaque(userdata!).takeUnretainedValue()
    let count = Int(count)
    guard hook.wakeDescriptor >= 0, count < PulsePoll.capacity, let descriptors else {
        return Glibc.poll(descriptors, nfds_t(count), timeout)
    }
    hook.descriptors.update(from: descriptors, count: count)
    hook.descriptors[count] = pollfd(fd: hook.wakeDescriptor, events: Int16(POLLIN), revents: 0)
    let ready = Glibc.poll(hook.descriptors, nfds_t(count + 1), timeout)
    guard ready > 0 else { return ready }
    descriptors.update(from: hook.descriptors, count: count)
    guard hook.descriptors[count].revents != 0 else { return ready }
    hook.woke = true
    return ready - 1
}
