import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A Snapcast stream as the output device: the stream's PCM over TCP to snapserver's `tcp`
/// source, paced in real time by playbackd's own clock (a source's audio is the player's
/// clock, as MPD's FIFO output is), so that every room plays it in sync.
///
/// The sink behaves as a device with a buffer: it takes audio while what it sent runs less
/// than `leadNanoseconds` ahead of real time, and what it sent is heard in the rooms
/// `SnapcastAddress.latencyNanoseconds` after it is due (snapserver's buffer): `delay`
/// counts both, so the position playbackd reports is what the rooms hear. Audio sent cannot be
/// taken back: after a pause or a seek the rooms play what they hold (the buffer), then fall
/// silent or go on with the new audio.
///
/// The connection stays open from item to item; `open` makes it when there is none (within
/// `connectTimeoutMilliseconds`), and a broken one makes `write` or `waitWritable` throw.
public final class SnapcastSink: AudioSink, @unchecked Sendable {
    public let address: SnapcastAddress
    public var deviceName: String { "snapcast \(address)" }
    public private(set) var openFormat: AudioFormat?
    public var isServerStream: Bool { false }
    /// snapserver restarted or not started yet: the player tries again.
    public var reconnects: Bool { true }
    public var hardwareDevice: HardwareDevice? { nil }
    private let underruns = Atomic<Int>(0)
    public var recoveredXruns: Int { underruns.load(ordering: .relaxed) }

    /// How far ahead of real time the sink sends.
    static let leadNanoseconds: UInt64 = 400_000_000
    /// How much audio one wake-up moves: 100 ms, where 20 ms (snapserver's chunk) cost 2.3
    /// times the CPU for the same audio (`Scripts/bench`: 0.299 against 0.128 s per audio
    /// minute passed as it is).
    static let periodNanoseconds: UInt64 = 100_000_000
    /// Linux's POLLRDHUP (a GNU macro Swift does not import): the peer closed its end.
    private static let pollPeerClosed: Int32 = 0x2000
    /// Chunks of silence after the last audio before a stream stops.
    static let trailingChunks = 3
    /// How long `open` waits for snapserver to accept the connection.
    static let connectTimeoutMilliseconds: Int32 = 1000

    private var socket: Int32 = -1
    private var converter: StreamConverter?
    /// When the audio sent so far runs out, at the stream's pace (monotonic nanoseconds); 0
    /// before anything was sent.
    private var streamEnd: UInt64 = 0
    /// When the first sample written since the last `open` or `drop` is due at snapserver.
    private var firstSampleDue: UInt64?
    /// Stream bytes converted but not yet taken by the socket.
    private var pending: UnsafeMutableRawBufferPointer
    private var pendingRange = 0..<0
    /// Stream bytes handed to the connection since it was made: snapserver reads whole chunks,
    /// and a partial one at the end is never played.
    private var streamBytes = 0

    /// One chunk of silence, to end the stream on a whole chunk.
    private let silentChunk: UnsafeMutableRawBufferPointer

    public init(address: SnapcastAddress) {
        self.address = address
        pending = .allocate(byteCount: 0, alignment: 2)
        silentChunk = .allocate(byteCount: address.sampleRate * address.chunkMilliseconds / 1000 * 4, alignment: 2)
        silentChunk.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        close()
        pending.deallocate()
        silentChunk.deallocate()
    }

    public var periodFrames: Int {
        Int(UInt64(openFormat?.sampleRate ?? 48_000) * Self.periodNanoseconds / 1_000_000_000)
    }

    public func open(_ format: AudioFormat) throws(SinkError) {
        openFormat = nil
        converter = nil
        guard (1...8).contains(format.channels), format.sampleRate > 0 else {
            throw SinkError(
                function: "open", code: -EINVAL, reason: "\(format) cannot be streamed", isUnsupportedFormat: true)
        }
        if socket >= 0 && !isConnectionAlive() { closeSocket() }
        if socket < 0 { try connect() }
        // What one write takes at most: the lead's worth of frames.
        let maximumFrames = Int(UInt64(format.sampleRate) * Self.leadNanoseconds / 1_000_000_000) + 1
        let made = try StreamConverter(
            input: format, streamRate: address.sampleRate, maximumInputFrames: maximumFrames)
        let outputBytes = made.output.count * 2 + maximumFrames * 4
        if pending.count < outputBytes {
            pending.deallocate()
            pending = .allocate(byteCount: outputBytes, alignment: 2)
        }
        pendingRange = 0..<0
        converter = made
        firstSampleDue = nil
        openFormat = format
    }

    public func write(_ samples: UnsafeRawBufferPointer) throws(SinkError) -> Int {
        guard let format = openFormat, let converter else { throw closedError }
        guard try sendPending() else { return 0 }
        let now = PlaybackClock.monotonicNow()
        if streamEnd < now {
            // Nothing left to play at snapserver: the stream starts again now. Mid-stream
            // (within one period of running out is not) that is an underrun the rooms hear.
            if streamEnd != 0 && firstSampleDue != nil && now - streamEnd > Self.periodNanoseconds {
                underruns.add(1, ordering: .relaxed)
            }
            streamEnd = now
        }
        let lead = streamEnd - now
        guard lead < Self.leadNanoseconds else { return 0 }
        let room = Int((Self.leadNanoseconds - lead) * UInt64(format.sampleRate) / 1_000_000_000)
        let frames = min(samples.count / format.frameBytes, room, converter.maximumInputFrames)
        guard frames > 0 else { return 0 }
        if firstSampleDue == nil { firstSampleDue = streamEnd }
        let bytes: UnsafeRawBufferPointer
        if converter.passesUntouched {
            bytes = UnsafeRawBufferPointer(rebasing: samples[..<(frames * format.frameBytes)])
        } else {
            let made = converter.convert(samples, frames: frames)
            bytes = UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: converter.output[..<(made * 2)]))
        }
        try send(bytes)
        streamEnd += UInt64(frames) * 1_000_000_000 / UInt64(format.sampleRate)
        return frames
    }

    public func waitWritable(orWake wake: EventSignal) throws(SinkError) -> Bool {
        guard socket >= 0 else { throw closedError }
        var descriptors = (
            pollfd(fd: wake.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(
                fd: socket, events: Int16(Self.pollPeerClosed) | (pendingRange.isEmpty ? 0 : Int16(POLLOUT)), revents: 0
            )
        )
        let now = PlaybackClock.monotonicNow()
        // Room for a period once the lead has fallen below the lead less one period.
        let target = streamEnd &+ Self.periodNanoseconds &- Self.leadNanoseconds
        let timeout =
            pendingRange.isEmpty && target > now ? Int32(min((target - now + 999_999) / 1_000_000, 1000)) : 0
        let ready = withUnsafeMutableBytes(of: &descriptors) { raw in
            poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, pendingRange.isEmpty ? timeout : -1)
        }
        if ready > 0 && descriptors.0.revents != 0 {
            wake.reset()
            return false
        }
        if ready > 0 && descriptors.1.revents & Int16(Self.pollPeerClosed | POLLHUP | POLLERR | POLLIN) != 0 {
            throw lostError(errno: ECONNRESET)
        }
        return true
    }

    public func delay() -> Int {
        guard let format = openFormat, let firstSampleDue else { return 0 }
        let now = PlaybackClock.monotonicNow()
        let heardUntil = now >= address.latencyNanoseconds ? now - address.latencyNanoseconds : 0
        // From the first sample written on: what is not heard yet, sent or held by libsoxr.
        let from = max(heardUntil, firstSampleDue)
        let ahead = streamEnd > from ? streamEnd - from : 0
        return Int(ahead * UInt64(format.sampleRate) / 1_000_000_000) + (converter?.heldFrames ?? 0)
    }

    public var reportsStart: Bool { openFormat != nil }

    /// The rooms play the first sample written since `open` or `drop` once snapserver's
    /// buffer has passed since it was due.
    public func hasStartedPlaying() -> Bool {
        guard let firstSampleDue else { return false }
        return PlaybackClock.monotonicNow() >= firstSampleDue + address.latencyNanoseconds
    }

    /// Sends what libsoxr holds and silence to the end of snapserver's chunk and
    /// `trailingChunks` more (snapserver plays whole chunks only, and the silence carries
    /// the last audio through), then waits until what was sent has been taken at the
    /// stream's pace.
    public func drain() {
        if let converter {
            let made = converter.flush()
            if made > 0 {
                try? send(
                    UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: converter.output[..<(made * 2)])))
            }
        }
        let chunkBytes = address.sampleRate * address.chunkMilliseconds / 1000 * 4
        let padding = (chunkBytes - streamBytes % chunkBytes) % chunkBytes
        for index in 0...Self.trailingChunks {
            let bytes = index == 0 ? padding : chunkBytes
            guard bytes > 0 else { continue }
            try? send(UnsafeRawBufferPointer(rebasing: silentChunk[..<bytes]))
            streamEnd += UInt64(bytes / 4) * 1_000_000_000 / UInt64(address.sampleRate)
        }
        while !pendingRange.isEmpty, (try? sendPending()) == false {
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            if poll(&descriptor, 1, 100) < 0 && errno != EINTR { break }
        }
        let now = PlaybackClock.monotonicNow()
        if streamEnd > now + Self.periodNanoseconds {
            let wait = streamEnd - now - Self.periodNanoseconds
            var request = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        }
        firstSampleDue = nil
    }

    /// Forgets what is converted and not sent; the next write starts a new signal. What the
    /// socket took plays on in the rooms.
    public func drop() {
        pendingRange = 0..<0
        converter?.reset()
        firstSampleDue = nil
    }

    public func close() {
        closeSocket()
        converter = nil
        openFormat = nil
        firstSampleDue = nil
        streamEnd = 0
    }

    // MARK: - The connection

    private var closedError: SinkError {
        SinkError(function: "write", code: -EBADFD, reason: "the Snapcast stream is closed")
    }

    private func lostError(errno code: Int32) -> SinkError {
        closeSocket()
        return SinkError(
            function: "send", code: -code,
            reason: "snapserver at \(address) closed the connection (\(String(cString: strerror(code))))")
    }

    /// Sends `bytes`; what the socket does not take now waits in `pending`.
    private func send(_ bytes: UnsafeRawBufferPointer) throws(SinkError) {
        streamBytes += bytes.count
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(
                socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { break }
                throw lostError(errno: errno)
            }
            offset += sent
        }
        let rest = bytes.count - offset
        guard rest > 0 else { return }
        let start = pendingRange.isEmpty ? 0 : pendingRange.upperBound
        let room = pending.count - start
        let kept = min(rest, room)
        UnsafeMutableRawBufferPointer(rebasing: pending[start..<(start + kept)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(offset)..<(offset + kept)]))
        pendingRange = (pendingRange.isEmpty ? 0 : pendingRange.lowerBound)..<(start + kept)
    }

    /// Sends what waits; true when nothing waits any more.
    private func sendPending() throws(SinkError) -> Bool {
        while !pendingRange.isEmpty {
            let sent = Glibc.send(
                socket, pending.baseAddress! + pendingRange.lowerBound, pendingRange.count,
                Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return false }
                throw lostError(errno: errno)
            }
            pendingRange = (pendingRange.lowerBound + sent)..<pendingRange.upperBound
        }
        pendingRange = 0..<0
        return true
    }

    /// Whether the connection still stands: snapserver never sends on it, so anything to
    /// read is its end.
    private func isConnectionAlive() -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN | Self.pollPeerClosed), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    private func connect() throws(SinkError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard resolved == 0, let first = found else {
            throw SinkError(
                function: "getaddrinfo", code: -EHOSTUNREACH,
                reason: "cannot resolve \(address.host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(found) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let fd = Glibc.socket(
                current.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                    | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            if Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
                lastError = errno
                Glibc.close(fd)
                continue
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&descriptor, 1, Self.connectTimeoutMilliseconds) != 1 {
                failure = ETIMEDOUT
            } else if getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 {
                failure = errno
            }
            guard failure == 0 else {
                lastError = failure
                Glibc.close(fd)
                continue
            }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            socket = fd
            streamEnd = 0
            streamBytes = 0
            return
        }
        throw SinkError(
            function: "connect", code: -lastError,
            reason: "cannot connect to snapserver at \(address): \(String(cString: strerror(lastError)))")
    }

    private func closeSocket() {
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
        pendingRange = 0..<0
    }
}
