import CDecoderLibraries
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One item's bytes fetched by libcurl on a thread of its own (`pbd-http`) into a bounded ring,
/// from which the decoder reads: the decoder waits for the network here, the output thread
/// and the event loop never do.
///
/// The transfer thread makes one request after another as needed: the first; one from where
/// the decoder seeks; after a drop, one from the last byte received (a file) or a new one (a
/// live stream, which goes on at its live edge), up to `maximumTries` in a row without a byte
/// between them, waiting 0.5 s, 1 s, 2 s before them. A file's requests name their range where
/// the server accepts ranges; where it does not, the file comes again from its first byte and
/// the bytes before the offset wanted are passed over. A connection that brings no byte for
/// `HTTPOptions.stallSeconds` counts as dropped; a failure before the first byte of audio ends
/// the transfer at once.
///
/// Offsets are the item's byte offsets; a live stream's bytes are numbered on across
/// reconnections. The ring keeps `history` bytes behind the reader, so the small seeks back
/// that the libraries make while opening need no new request.
final class HTTPTransfer: @unchecked Sendable {
    /// What the server said about the item in its first successful response.
    struct Response: Equatable {
        /// Bytes in all (`Content-Length`, or a 206's `Content-Range` total); nil: live.
        var size: Int?
        /// Whether `Range` requests are accepted (`Accept-Ranges: bytes`).
        var acceptsRanges: Bool
        var contentType: String?
        /// `icy-name`: the station.
        var station: String?
        /// `icy-metaint`: audio bytes between two metadata blocks; nil without them.
        var metadataInterval: Int?

        /// Whether it is a live stream: with ICY metadata, or with neither a length nor ranges.
        /// After a drop it goes on from its live edge; a file from its last byte received.
        var isLive: Bool { metadataInterval != nil || (size == nil && !acceptsRanges) }
    }

    static let ringCapacity = 1 << 20
    static let history = 64 * 1024
    static let maximumTries = 3
    /// The most header bytes one request may bring (a server that sends headers forever).
    static let maximumHeaderBytes = 64 * 1024
    /// How far ahead of the ring a seek waits for the bytes instead of asking anew.
    static let readAhead = 256 * 1024

    let url: String
    let options: HTTPOptions

    // Guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let ring = UnsafeMutableRawBufferPointer.allocate(byteCount: ringCapacity, alignment: 16)
    private var ringStart = 0
    private var ringEnd = 0
    private var readOffset = 0
    /// A seek the transfer thread has yet to make.
    private var requestedOffset: Int?
    /// Every byte up to the end of the item is in, or the reader sought past the end.
    private var ended = false
    private(set) var failure: DecoderError?
    private var closed = false
    private var response: Response?

    // The transfer thread's own.
    private var headers: [String: String] = [:]
    private var status = 0
    private var headerBytes = 0
    private var lastActivity: UInt64 = 0
    private var demuxer: ICYDemuxer?
    /// Why the thread aborted a request itself, when it did.
    private var rejection: DecoderError?
    private var lastTitle: String?
    private var requestStart = 0
    /// The item's offset of the next byte of this request's body.
    private var incoming = 0
    /// Whether any request brought a byte of audio.
    private var everReceived = false

    init(url: String, options: HTTPOptions) {
        self.url = url
        self.options = options
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        ring.deallocate()
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// The transfer threads started and not joined yet, each with whether its work is done.
    /// A thread is joined once done: when the next transfer starts, or at the daemon's exit. (A
    /// count of threads running, lowered as each body returned, said none was left while the
    /// last was still ending: a loaded machine's exit listed it.)
    private static let threads = Locked(TransferThreads())

    /// Joins the transfer threads whose work is done; whether none is left.
    private static func joinDone() -> Bool {
        let (done, isEmpty) = threads.withLock { $0.takeDone() }
        for thread in done { thread.join() }
        return isEmpty
    }

    /// Waits until every transfer thread has ended, at most `timeout` seconds (a closed
    /// transfer ends at libcurl's next callback, within about a second); whether they all did.
    /// For the daemon's exit (`PlaybackEngine.waitForTransfersToEnd`).
    static func waitForAllToEnd(timeout: Double) -> Bool {
        let deadline = PlaybackClock.monotonicNow() + UInt64(timeout * 1e9)
        while !joinDone() {
            guard PlaybackClock.monotonicNow() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Starts the transfer thread; false when the system gives no thread. Its transfer does not
    /// wait for it (`close` does not): it ends by itself, and is joined when the next transfer
    /// starts or at exit (`waitForAllToEnd`).
    func start() -> Bool {
        _ = Self.joinDone()
        let transfer = UncheckedSendable(self)
        let key = Self.threads.withLock { $0.newKey() }
        guard
            let thread = NamedThread.start(
                name: "pbd-http",
                body: {
                    transfer.value.run()
                    _ = Self.threads.withLock { $0.done.insert(key) }
                })
        else { return false }
        Self.threads.withLock { $0.running[key] = UncheckedSendable(thread) }
        return true
    }

    /// Waits for the first response's headers (or the failure that came instead).
    func waitForResponse() throws(DecoderError) -> Response {
        let outcome: Result<Response, DecoderError> = locked {
            while response == nil && failure == nil { pthread_cond_wait(changed, mutex) }
            if let response { return .success(response) }
            return .failure(failure!)
        }
        return try outcome.get()
    }

    /// Ends the transfer: the thread stops at its next callback (within about a second) and
    /// frees everything. Does not wait for it.
    func close() {
        locked {
            closed = true
            pthread_cond_broadcast(changed)
        }
    }

    /// Copies up to `count` bytes from `offset`, waiting for them: 0 at the end, -1 on a failure
    /// (once the bytes before it were read).
    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        locked {
            readOffset = offset
            pthread_cond_broadcast(changed)
            while true {
                if offset >= ringStart && offset < ringEnd {
                    let got = min(count, ringEnd - offset)
                    copy(from: offset, count: got, to: destination)
                    readOffset = offset + got
                    pthread_cond_broadcast(changed)
                    return got
                }
                if failure != nil { return -1 }
                if ended { return 0 }
                pthread_cond_wait(changed, mutex)
            }
        }
    }

    /// Moves the reader to `offset`: at once within what the ring holds or will soon hold,
    /// else by a new request; false (`ESPIPE`) in a live stream.
    func seek(to offset: Int) -> Bool {
        locked {
            guard failure == nil else {
                errno = EIO
                return false
            }
            if offset >= ringStart && offset <= ringEnd + Self.readAhead && requestedOffset == nil
                && (!ended || offset <= ringEnd)
            {
                readOffset = offset
                pthread_cond_broadcast(changed)
                return true
            }
            guard let response, !response.isLive else {
                errno = ESPIPE
                return false
            }
            requestedOffset = offset
            ringStart = offset
            ringEnd = offset
            readOffset = offset
            ended = false
            pthread_cond_broadcast(changed)
            return true
        }
    }

    // MARK: - The transfer thread

    private func run() {
        guard let handle = playbackd_curl_easy_init() else {
            return locked { fail(.decodingFailed("libcurl could not start a transfer")) }
        }
        defer { playbackd_curl_easy_cleanup(handle) }
        configure(handle)
        var offset = 0
        var tries = 0
        while true {
            let (progressed, code) = request(handle, from: offset)
            let next: (offset: Int, pause: Bool)? = locked {
                if closed { return nil }
                if requestedOffset != nil {
                    tries = 0
                    return waitForSeek().map { ($0, false) }
                }
                if let rejection {
                    fail(rejection)
                    return nil
                }
                let complete = response?.size.map { ringEnd >= $0 } ?? (response?.isLive == false)
                if code == CURLE_OK && response != nil && complete {
                    ended = true
                    pthread_cond_broadcast(changed)
                    return waitForSeek().map { ($0, false) }
                }
                let reason = describe(code, handle: handle)
                // Before the first byte of audio (no such host, refused, a server that answers
                // and then sends nothing) and on an HTTP error, the failure is the item's: there
                // is nothing to resume.
                guard code != CURLE_HTTP_RETURNED_ERROR, everReceived, response != nil else { return failing(reason) }
                tries = progressed ? 1 : tries + 1
                if tries > Self.maximumTries { return failing(reason) }
                // A live stream goes on from its live edge; a file from its last byte.
                return (ringEnd, true)
            }
            guard let next else { return }
            if next.pause && !pausedBeforeRetry(tries) { return }
            offset = next.offset
        }
    }

    /// Fails the transfer; nil, to end the loop.
    private func failing<Value>(_ reason: DecoderError) -> Value? {
        fail(reason)
        return nil
    }

    /// Holding the lock: waits until the reader seeks again (the next offset) or the transfer
    /// is closed (nil).
    private func waitForSeek() -> Int? {
        while !closed {
            if let target = requestedOffset {
                requestedOffset = nil
                if let size = response?.size, target >= size {
                    ended = true
                    pthread_cond_broadcast(changed)
                    continue
                }
                return target
            }
            pthread_cond_wait(changed, mutex)
        }
        return nil
    }

    /// Sleeps before try `tries` (0.5 s, 1 s, 2 s); false when the transfer was closed meanwhile.
    private func pausedBeforeRetry(_ tries: Int) -> Bool {
        locked {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + 500_000_000 << (tries - 1)
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while !closed && requestedOffset == nil {
                if pthread_cond_timedwait(changed, mutex, &deadline) == ETIMEDOUT { break }
            }
            return !closed
        }
    }

    private func fail(_ reason: DecoderError) {
        if failure == nil { failure = reason }
        pthread_cond_broadcast(changed)
    }

    private func configure(_ handle: UnsafeMutableRawPointer) {
        playbackd_curl_prepare(
            handle, "playbackd/\(PlaybackdVersion.current)", options.caFile, Int(options.stallSeconds * 1000),
            Self.progress, Self.body, Self.header, Unmanaged.passUnretained(self).toOpaque())
        _ = playbackd_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = playbackd_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 5)
        _ = playbackd_curl_setopt_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = playbackd_curl_setopt_long(handle, CURLOPT_FAILONERROR, 1)
    }

    /// One request from `offset`: whether it brought a byte, and how it ended.
    private func request(_ handle: UnsafeMutableRawPointer, from offset: Int) -> (progressed: Bool, code: CURLcode) {
        let (first, live, acceptsRanges) = locked {
            (response == nil, response?.isLive ?? false, response?.acceptsRanges ?? false)
        }
        headers = [:]
        status = 0
        headerBytes = 0
        rejection = nil
        demuxer = nil
        lastActivity = PlaybackClock.monotonicNow()
        var list: UnsafeMutablePointer<curl_slist>? = playbackd_curl_slist_append(nil, "Icy-MetaData: 1")
        defer { playbackd_curl_slist_free_all(list) }
        if !first && live { list = playbackd_curl_slist_append(list, "Cache-Control: no-cache") }
        _ = playbackd_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
        _ = playbackd_curl_setopt_pointer(handle, CURLOPT_URL, url)
        // Every request of a file after the first names its range where the server takes ranges,
        // from 0 too: it must answer with that range (206), which says the bytes are the ones
        // asked for. Where it takes none, the file comes from its first byte again, and what
        // comes before `offset` is passed over (a seek or a resume costs the bytes before it).
        let ranged = !first && !live && acceptsRanges
        let range = ranged ? "\(offset)-" : nil
        if let range {
            range.withCString { _ = playbackd_curl_setopt_pointer(handle, CURLOPT_RANGE, $0) }
        } else {
            _ = playbackd_curl_setopt_pointer(handle, CURLOPT_RANGE, nil)
        }
        requestStart = locked { ringEnd }
        incoming = ranged || live ? requestStart : 0
        let code = playbackd_curl_easy_perform(handle)
        return (locked { ringEnd > requestStart }, code)
    }

    private func describe(_ code: CURLcode, handle: UnsafeMutableRawPointer) -> DecoderError {
        switch code {
        case CURLE_HTTP_RETURNED_ERROR:
            var status = 0
            _ = playbackd_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            return .readFailed("the server answered HTTP \(status)")
        case CURLE_ABORTED_BY_CALLBACK:
            return .readFailed("no data from the server for \(Self.seconds(options.stallSeconds)) s")
        case CURLE_OK:
            return .readFailed("the server closed the connection early")
        default:
            return .readFailed(String(cString: playbackd_curl_easy_strerror(code)))
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    // MARK: libcurl's callbacks, on the transfer thread

    private static let header: curl_write_callback = { bytes, size, count, me in
        let transfer = Unmanaged<HTTPTransfer>.fromOpaque(me!).takeUnretainedValue()
        let length = size * count
        return transfer.takeHeader(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }

    private static let body: curl_write_callback = { bytes, size, count, me in
        let transfer = Unmanaged<HTTPTransfer>.fromOpaque(me!).takeUnretainedValue()
        let length = size * count
        return transfer.takeBody(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }

    private static let progress: curl_xferinfo_callback = { me, _, _, _, _ in
        let transfer = Unmanaged<HTTPTransfer>.fromOpaque(me!).takeUnretainedValue()
        let stalled =
            Double(PlaybackClock.monotonicNow() &- transfer.lastActivity) / 1e9 > transfer.options.stallSeconds
        return stalled || transfer.locked { transfer.closed || transfer.requestedOffset != nil } ? 1 : 0
    }

    private func takeHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = PlaybackClock.monotonicNow()
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else {
            rejection = .readFailed("the server's headers did not end (over \(Self.maximumHeaderBytes / 1024) KiB)")
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix(bytes: "HTTP/") || line.hasPrefix(bytes: "ICY ") {
            headers = [:]
            let words = line.split(separator: " ", maxSplits: 2)
            status = words.count > 1 ? Int(words[1]) ?? 0 : 0
            return true
        }
        if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            headers[name] = value
            return true
        }
        // The blank line that ends a response's headers.
        guard (200..<300).contains(status) else { return true }
        return acceptHeaders()
    }

    /// At the end of a successful response's headers: checks and keeps what it says.
    private func acceptHeaders() -> Bool {
        let contentType = headers["content-type"]?.lowercased()
        if let contentType, contentType.hasPrefix(bytes: "text/") || contentType.contains(bytes: "html") {
            rejection = .notAudio("the server sent \(contentType.split(separator: ";")[0]), not audio")
            return false
        }
        let interval = headers["icy-metaint"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        demuxer = interval.map(ICYDemuxer.init)
        return locked {
            if response == nil {
                let total = headers["content-range"].flatMap { $0.split(separator: "/").last }.flatMap { Int($0) }
                let length = headers["content-length"].flatMap { Int($0) }
                let size = status == 206 ? total : length
                response = Response(
                    size: interval == nil ? size : nil,
                    acceptsRanges: headers["accept-ranges"]?.lowercased() == "bytes" || status == 206,
                    contentType: contentType, station: headers["icy-name"], metadataInterval: interval)
                pthread_cond_broadcast(changed)
            } else if response?.isLive == false && response?.acceptsRanges == true && status != 206 {
                rejection = .readFailed("the server ignored the range request")
                return false
            }
            return true
        }
    }

    private func takeBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = PlaybackClock.monotonicNow()
        guard var demuxer else { return append(bytes) }
        defer { self.demuxer = demuxer }
        return demuxer.split(bytes, audio: append) { title in
            guard title != lastTitle else { return }
            lastTitle = title
            options.onTitle?(StreamTitle(title))
        }
    }

    /// Puts `bytes` in the ring, waiting while it is full; false when the request is to end.
    private func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        let kept = locked { () -> Bool in
            while done < bytes.count {
                if closed || requestedOffset != nil { return false }
                if incoming < ringEnd {
                    // From a server without ranges: bytes before the ones wanted.
                    let passed = min(ringEnd - incoming, bytes.count - done)
                    incoming += passed
                    done += passed
                    continue
                }
                let oldest = max(ringStart, readOffset - Self.history)
                let room = Self.ringCapacity - (ringEnd - oldest)
                if room <= 0 {
                    pthread_cond_wait(changed, mutex)
                    continue
                }
                let take = min(room, bytes.count - done)
                ringStart = max(ringStart, ringEnd + take - Self.ringCapacity)
                store(UnsafeRawBufferPointer(rebasing: bytes[done..<(done + take)]), at: ringEnd)
                ringEnd += take
                incoming += take
                done += take
                everReceived = true
                pthread_cond_broadcast(changed)
            }
            return true
        }
        lastActivity = PlaybackClock.monotonicNow()
        return kept
    }

    private func store(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        let start = offset % Self.ringCapacity
        let first = min(bytes.count, Self.ringCapacity - start)
        (ring.baseAddress! + start).copyMemory(from: bytes.baseAddress!, byteCount: first)
        if first < bytes.count {
            ring.baseAddress!.copyMemory(from: bytes.baseAddress! + first, byteCount: bytes.count - first)
        }
    }

    private func copy(from offset: Int, count: Int, to destination: UnsafeMutableRawPointer) {
        let start = offset % Self.ringCapacity
        let first = min(count, Self.ringCapacity - start)
        destination.copyMemory(from: ring.baseAddress! + start, byteCount: first)
        if first < count { (destination + first).copyMemory(from: ring.baseAddress!, byteCount: count - first) }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs, carriage returns and line feeds.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// The transfer threads not joined yet, by key, and the keys of those whose work is done (a
/// body may end before its thread is recorded).
private struct TransferThreads {
    var running: [Int: UncheckedSendable<NamedThread>] = [:]
    var done: Set<Int> = []
    private var lastKey = 0

    mutating func newKey() -> Int {
        lastKey += 1
        return lastKey
    }

    /// Takes out the threads whose work is done; whether none is left.
    mutating func takeDone() -> ([NamedThread], Bool) {
        let keys = done.filter { running[$0] != nil }
        let threads = keys.compactMap { running.removeValue(forKey: $0)?.value }
        done.subtract(keys)
        return (threads, running.isEmpty && done.isEmpty)
    }
}
