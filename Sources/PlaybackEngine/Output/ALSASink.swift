import CALSA
import CALSAShim
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// ALSA playback through libasound2, on the PCM named by `--device`.
///
/// The device is opened non-blocking, so the output thread waits in `poll` on ALSA's own
/// descriptors together with the engine's wake-up descriptor: a pause or seek never waits
/// for a period to play out. Opened and closed off the event loop (`AudioSink`); while a
/// pipeline runs, only its output thread touches the handle.
public final class ALSASink: AudioSink, @unchecked Sendable {
    /// Requested buffer and period lengths. A long buffer with long periods keeps wake-ups
    /// rare while playing (on PulseAudio, 1 s / 250 ms costs 0.44x the CPU of 400 ms / 100 ms,
    /// see docs/performance.md). It costs no control latency: pause and seek drop the buffer.
    public static let bufferMicroseconds: UInt32 = 1_000_000
    public static let periodMicroseconds: UInt32 = 250_000
    /// `snd_pcm_recover` attempts for one write before the device counts as gone.
    public static let maximumRecoveries = 8

    public let deviceName: String
    public private(set) var openFormat: AudioFormat?
    public private(set) var periodFrames = 0
    public private(set) var isServerStream = false
    public var closesAtPause: Bool { isServerStream }
    /// The open device's buffer, when it is held at a pause and cannot pause where it plays;
    /// else 0: a ring no longer than it needs (a ring a second longer made the pulse plugin's
    /// stream stall at times).
    public var replayedAfterPauseMicroseconds: Int {
        guard !isServerStream, !canPause else { return 0 }
        return openBufferMicroseconds
    }
    /// The open device's buffer as it was set, rounded up to a microsecond; 0 when closed.
    private var openBufferMicroseconds = 0
    public private(set) var hardwareDevice: HardwareDevice?
    /// Whether the open device can pause where it plays (`snd_pcm_hw_params_can_pause`).
    private var canPause = false
    private var pcm: OpaquePointer?
    private var pollDescriptors: UnsafeMutableBufferPointer<pollfd> = .init(start: nil, count: 0)
    /// xruns recovered since the device was opened: incremented by the output thread, read by
    /// the event loop, so an atomic.
    private let xruns = Atomic<Int>(0)
    public var recoveredXruns: Int { xruns.load(ordering: .relaxed) }

    public init(deviceName: String) {
        self.deviceName = deviceName
        playbackd_alsa_silence_errors()
    }

    deinit { close() }

    public func open(_ format: AudioFormat) throws(SinkError) {
        close()
        var handle: OpaquePointer?
        try check(snd_pcm_open(&handle, deviceName, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK), "snd_pcm_open")
        guard let handle else { throw SinkError(function: "snd_pcm_open", code: -ENODEV, reason: "no handle") }
        let feedsOnlyAFile = Self.feedsOnlyAFile(handle)
        do {
            try configure(handle, format, shortBuffer: feedsOnlyAFile)
        } catch {
            snd_pcm_close(handle)
            throw SinkError(
                function: error.function, code: error.code,
                reason: "cannot play \(format): \(error.reason)", isUnsupportedFormat: true)
        }
        pcm = handle
        // The output thread compares states in `waitWritable`: the first comparison makes the
        // Swift runtime build the C enum's metadata (an allocation), so it happens here.
        _ = snd_pcm_state(handle) == SND_PCM_STATE_DISCONNECTED
        openFormat = format
        isServerStream = snd_pcm_type(handle) == SND_PCM_TYPE_IOPLUG
        hardwareDevice = Self.hardwareDevice(of: handle)
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        snd_pcm_get_params(handle, &bufferSize, &periodSize)
        periodFrames = Int(periodSize)
        openBufferMicroseconds = (Int(bufferSize) * 1_000_000 + format.sampleRate - 1) / format.sampleRate
        writeLimitFrames = feedsOnlyAFile ? periodFrames : .max
        let count = Int(snd_pcm_poll_descriptors_count(handle))
        pollDescriptors = .allocate(capacity: count + 1)
        xruns.store(0, ordering: .relaxed)
    }

    /// The most frames one write passes on: a period for a device that only feeds a file (it
    /// takes all it is given in one call, blocked at the pace of the FIFO's reader, and a halt
    /// would wait for it), else all.
    private var writeLimitFrames = Int.max

    /// The buffer and period of a device that only feeds a file (`feedsOnlyAFile`).
    static let fileBufferMicroseconds: UInt32 = 100_000
    static let filePeriodMicroseconds: UInt32 = 25_000

    /// Whether the PCM writes into a file with nothing behind it that plays in real time: ALSA's
    /// file plugin over the null PCM (a FIFO a Snapcast server reads, say), alone or behind the
    /// `plug` that converts for it. It never fills: a write is passed on whole, blocking at the
    /// reader's pace, and the plugin holds a whole buffer before it writes it, then writes what
    /// it holds when dropped. So the buffer is what a seek is heard late by, and what a halt
    /// waits for: such a device gets `fileBufferMicroseconds` (docs/performance.md). ALSA has
    /// no call that names a plugin's slave; its dump does ("Plug PCM: File PCM (…)", then
    /// "Slave: Null PCM").
    static func feedsOnlyAFile(_ handle: OpaquePointer) -> Bool {
        let type = snd_pcm_type(handle)
        guard type == SND_PCM_TYPE_FILE || type == SND_PCM_TYPE_PLUG else { return false }
        var output: OpaquePointer?
        guard snd_output_buffer_open(&output) == 0, let output else { return false }
        defer { snd_output_close(output) }
        snd_pcm_dump(handle, output)
        var text: UnsafeMutablePointer<CChar>?
        let length = snd_output_buffer_string(output, &text)
        guard let text, length > 0 else { return false }
        let dump = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        let file =
            type == SND_PCM_TYPE_FILE ? dump.hasPrefix(bytes: "File PCM") : dump.hasPrefix(bytes: "Plug PCM: File PCM")
        return file && dump.contains(bytes: "\nSlave: Null PCM")
    }

    private func configure(_ handle: OpaquePointer, _ format: AudioFormat, shortBuffer: Bool) throws(SinkError) {
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(handle, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "set_access")
        let sampleFormat = format.sampleFormat == .s32 ? SND_PCM_FORMAT_S32_LE : SND_PCM_FORMAT_S16_LE
        try check(snd_pcm_hw_params_set_format(handle, hw, sampleFormat), "set_format")
        try check(snd_pcm_hw_params_set_channels(handle, hw, UInt32(format.channels)), "set_channels")
        var rate = UInt32(format.sampleRate)
        try check(snd_pcm_hw_params_set_rate_near(handle, hw, &rate, nil), "set_rate_near")
        guard rate == UInt32(format.sampleRate) else {
            throw SinkError(
                function: "set_rate_near", code: -EINVAL,
                reason: "device cannot play \(format.sampleRate) Hz (nearest \(rate))")
        }
        var buffer = shortBuffer ? Self.fileBufferMicroseconds : Self.bufferMicroseconds
        var period = shortBuffer ? Self.filePeriodMicroseconds : Self.periodMicroseconds
        try check(snd_pcm_hw_params_set_buffer_time_near(handle, hw, &buffer, nil), "set_buffer_time_near")
        try check(snd_pcm_hw_params_set_period_time_near(handle, hw, &period, nil), "set_period_time_near")
        try check(snd_pcm_hw_params(handle, hw), "snd_pcm_hw_params")
        canPause = snd_pcm_hw_params_can_pause(hw) == 1
    }

    public func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int {
        guard let pcm, let format = openFormat else {
            throw SinkError(function: "snd_pcm_writei", code: -EBADFD, reason: "device is closed")
        }
        let frames = min(samples.count / format.frameBytes, writeLimitFrames)
        for _ in 0...Self.maximumRecoveries {
            let written = snd_pcm_writei(pcm, samples.baseAddress, snd_pcm_uframes_t(frames))
            if written >= 0 { return Int(written) }
            if written == -Int(EAGAIN) { return 0 }
            guard snd_pcm_recover(pcm, Int32(written), 1) == 0 else {
                throw SinkError(
                    function: "snd_pcm_writei", code: Int32(written),
                    reason: String(cString: snd_strerror(Int32(written))))
            }
            xruns.add(1, ordering: .relaxed)
        }
        throw SinkError(function: "snd_pcm_writei", code: -EIO, reason: "xrun recovery kept failing")
    }

    public func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool {
        guard let pcm, let base = pollDescriptors.baseAddress else {
            throw SinkError(function: "snd_pcm_poll_descriptors", code: -EBADFD, reason: "device is closed")
        }
        let count = Int32(pollDescriptors.count - 1)
        snd_pcm_poll_descriptors(pcm, base, UInt32(count))
        base[Int(count)] = pollfd(fd: wake.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(base, nfds_t(count + 1), -1)
            if ready < 0 && errno == EINTR { continue }
            if base[Int(count)].revents != 0 {
                // Consume the wake-up, or every later wait would return at once and spin.
                wake.reset()
                return false
            }
            var events: UInt16 = 0
            let result = snd_pcm_poll_descriptors_revents(pcm, base, UInt32(count), &events)
            // A plugin whose server went away (PulseAudio killed) keeps its descriptors ready
            // and fails here: that is the device disappearing, not a reason to poll again.
            if result < 0 || snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED {
                throw SinkError(
                    function: "snd_pcm_poll_descriptors_revents", code: result < 0 ? result : -ENODEV,
                    reason: result < 0 ? String(cString: snd_strerror(result)) : "device disconnected")
            }
            // POLLERR or POLLOUT: either way the next write makes progress or reports.
            if events != 0 { return true }
        }
    }

    public func delay() -> Int {
        guard let pcm else { return 0 }
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) == 0, frames > 0 else { return 0 }
        return Int(frames)
    }

    public func drain() {
        guard let pcm else { return }
        snd_pcm_nonblock(pcm, 0)
        snd_pcm_drain(pcm)
        snd_pcm_nonblock(pcm, 1)
        snd_pcm_prepare(pcm)
    }

    /// `snd_pcm_pause`, where the device can (`snd_pcm_hw_params_can_pause`: a card's own
    /// PCM, and the plugins that pass it on), while it plays or is paused.
    public func pauseKeepingBuffer(_ paused: Bool) -> Bool {
        guard let pcm, canPause else { return false }
        let playing = snd_pcm_state(pcm) == (paused ? SND_PCM_STATE_RUNNING : SND_PCM_STATE_PAUSED)
        return playing && snd_pcm_pause(pcm, paused ? 1 : 0) == 0
    }

    public func drop() {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
        openFormat = nil
        isServerStream = false
        hardwareDevice = nil
        canPause = false
        openBufferMicroseconds = 0
        pollDescriptors.deallocate()
        pollDescriptors = .init(start: nil, count: 0)
    }

    /// The card and device a PCM plays on; nil unless it is a card's (a `hw` PCM, or a plugin
    /// chain ending in one).
    private static func hardwareDevice(of handle: OpaquePointer) -> HardwareDevice? {
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) >= 0, let info else { return nil }
        defer { snd_pcm_info_free(info) }
        guard snd_pcm_info(handle, info) >= 0, snd_pcm_info_get_card(info) >= 0 else { return nil }
        return HardwareDevice(card: Int(snd_pcm_info_get_card(info)), device: Int(snd_pcm_info_get_device(info)))
    }

    private func check(_ result: Int32, _ function: String) throws(SinkError) {
        guard result >= 0 else {
            throw SinkError(function: function, code: result, reason: String(cString: snd_strerror(result)))
        }
    }
}
