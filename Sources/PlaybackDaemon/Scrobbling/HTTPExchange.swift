import CDecoderLibraries
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP(S) request and its answer, made by libcurl on the calling thread (a scrobbler's
/// worker, never the event loop). Bounded on every side: the connection and the whole exchange
/// by `timeout`, the answer's headers and body by `maximumBytes` (a server that sends forever
/// is cut off), and `isCancelled` ends it within about a second (the daemon stopping).
struct HTTPExchange {
    /// A request: POST with `body` when there is one, else GET.
    struct Request {
        var url: String
        var headers: [String] = []
        var body: [UInt8]?
        var timeout: Double = 30
    }

    /// What the server answered: its status, headers (names in lower case) and body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Why no answer came.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// libcurl is not on this system.
        case unavailable
        /// No connection, a time-out, a reset, a TLS failure: libcurl's words.
        case unreachable(String)
        /// The answer was longer than allowed.
        case tooLong(Int)
        /// The exchange was ended by `isCancelled`.
        case cancelled

        var description: String {
            switch self {
            case .unavailable: "libcurl (libcurl4) is not installed"
            case .unreachable(let reason): reason
            case .tooLong(let bytes): "the answer went on past \(bytes / 1024) KiB"
            case .cancelled: "cancelled"
            }
        }
    }

    /// The most bytes of an answer's headers and body together.
    var maximumBytes = 256 * 1024
    /// CA certificates to trust instead of the system's.
    var caFile: String?
    /// The User-Agent header.
    var userAgent = "playbackd/\(PlaybackdVersion.current)"
    /// Asked about once a second during the exchange; true ends it.
    var isCancelled: () -> Bool = { false }

    /// Makes `request` and waits for the whole answer.
    func perform(_ request: Request) -> Result<Reply, Failure> {
        guard playbackd_curl_load() == 1, let handle = playbackd_curl_easy_init() else {
            return .failure(.unavailable)
        }
        defer { playbackd_curl_easy_cleanup(handle) }
        let answer = Answer(limit: maximumBytes, isCancelled: isCancelled)
        var list: UnsafeMutablePointer<curl_slist>?
        for header in request.headers { list = playbackd_curl_slist_append(list, header) }
        defer { playbackd_curl_slist_free_all(list) }
        playbackd_curl_prepare(
            handle, userAgent, caFile, Int(request.timeout * 1000), Answer.progress, Answer.body, Answer.header,
            Unmanaged.passUnretained(answer).toOpaque())
        _ = playbackd_curl_setopt_pointer(handle, CURLOPT_URL, request.url)
        _ = playbackd_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
        _ = playbackd_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000))
        // A byte more, so that even an empty body has an address.
        let code: CURLcode = ((request.body ?? []) + [0]).withUnsafeBufferPointer { body in
            if request.body != nil {
                _ = playbackd_curl_setopt_long(handle, CURLOPT_POST, 1)
                _ = playbackd_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count - 1))
                _ = playbackd_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress)
            }
            return playbackd_curl_easy_perform(handle)
        }
        if answer.overflowed { return .failure(.tooLong(maximumBytes)) }
        if answer.cancelled { return .failure(.cancelled) }
        guard code == CURLE_OK else {
            return .failure(.unreachable(String(cString: playbackd_curl_easy_strerror(code))))
        }
        var status = 0
        _ = playbackd_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(Reply(status: status, headers: answer.headers, body: answer.body))
    }
}

/// The answer as libcurl hands it over, on the calling thread.
private final class Answer {
    let limit: Int
    let isCancelled: () -> Bool
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var received = 0
    var overflowed = false
    var cancelled = false

    init(limit: Int, isCancelled: @escaping () -> Bool) {
        self.limit = limit
        self.isCancelled = isCancelled
    }

    /// Counts `count` bytes; false once past the limit.
    func take(_ count: Int) -> Bool {
        received += count
        overflowed = received > limit
        return !overflowed
    }

    static let header: curl_write_callback = { bytes, size, count, me in
        let answer = Unmanaged<Answer>.fromOpaque(me!).takeUnretainedValue()
        let length = size * count
        guard answer.take(length) else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            answer.headers = [:]  // a redirect's or a 100's headers are not the answer's
        } else if let colon = line.firstIndex(of: ":") {
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            answer.headers[line[..<colon].lowercased()] = String(
                value.prefix { $0 != "\r" && $0 != "\n" && $0 != "\r\n" })
        }
        return length
    }

    static let body: curl_write_callback = { bytes, size, count, me in
        let answer = Unmanaged<Answer>.fromOpaque(me!).takeUnretainedValue()
        let length = size * count
        guard answer.take(length) else { return 0 }
        answer.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
        return length
    }

    static let progress: curl_xferinfo_callback = { me, _, _, _, _ in
        let answer = Unmanaged<Answer>.fromOpaque(me!).takeUnretainedValue()
        answer.cancelled = answer.isCancelled()
        return answer.cancelled ? 1 : 0
    }
}
