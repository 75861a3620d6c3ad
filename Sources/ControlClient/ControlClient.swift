import CSystemShim
import ControlProtocol
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Why talking to the daemon failed.
public enum ClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing listens on the socket (or it cannot be reached).
    case daemonNotRunning(path: String, reason: String)
    /// The connection broke or timed out.
    case connectionLost(String)
    /// The daemon sent something that is not a JSON object line.
    case malformedReply(String)
    /// The connection was accepted but no reply came within `seconds` (a socket unit whose
    /// service does not start, or a daemon that hangs).
    case noReply(path: String, seconds: Double)
    /// The process listening on the socket runs as another user: whatever answers there is
    /// not this user's playbackd (a socket path pre-created by someone else, in /tmp).
    case foreignSocket(path: String, owner: UInt32)

    public var description: String {
        switch self {
        case .daemonNotRunning(let path, let reason): "playbackd is not running (\(path): \(reason))"
        case .connectionLost(let reason): "connection to playbackd lost: \(reason)"
        case .malformedReply(let reason): "malformed reply from playbackd: \(reason)"
        case .foreignSocket(let path, let owner):
            "refusing \(path): it is served by uid \(owner), not by you (uid \(getuid())); "
                + "set XDG_RUNTIME_DIR, or remove it if it is not yours"
        case .noReply(let path, let seconds):
            "playbackd accepted the connection but did not answer within \(Self.format(seconds)) s (\(path)); "
                + "see `systemctl --user status playbackd`"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
    }
}

/// A blocking connection to the control socket, for the CLI and the tests: send request
/// objects, read reply and event lines.
public final class ControlClient {
    private let fd: Int32
    private let path: String
    /// How long `request` and `pipelined` wait for the replies, in seconds, before throwing
    /// `noReply`; nil waits as long as the connection lasts.
    public var replyTimeout: Double?
    private var buffer: [UInt8] = []
    private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)

    public init(path: String) throws(ClientError) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .daemonNotRunning(path: path, reason: Self.errnoText) }
        // From here on every stored property is set, so `deinit` closes `fd` if init throws.
        guard let address = UnixSocketAddress(path: path) else {
            throw .daemonNotRunning(path: path, reason: "socket path too long")
        }
        let connected = address.connect(fd)
        guard connected == 0 else {
            throw .daemonNotRunning(path: path, reason: Self.errnoText)
        }
        // Talk only to a daemon of this user: requests carry file paths and get replies that
        // scripts act on, so they must not go to a socket someone else put in our way.
        var owner: UInt32 = 0
        guard playbackd_peer_uid(fd, &owner) == 0, owner == getuid() else {
            throw .foreignSocket(path: path, owner: owner)
        }
    }

    /// The connection's descriptor, to wait for it in `poll` beside others; read it only
    /// through `readLine` (which keeps what it has buffered).
    public var fileDescriptor: Int32 { fd }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        receiveBuffer.deallocate()
    }

    /// Sends one request object as a line.
    public func send(_ request: JSONValue) throws(ClientError) {
        try sendRaw(request.serialized + "\n")
    }

    /// Sends bytes as they are (tests use this for malformed input).
    public func sendRaw(_ text: String) throws(ClientError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .connectionLost(Self.errnoText) }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Half-closes the sending side (as `echo ... | socat` does).
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Sends `request` and returns the reply object.
    public func request(_ request: JSONValue) throws(ClientError) -> JSONValue {
        guard let reply = try pipelined([request]).first else { throw .connectionLost("no reply") }
        return reply
    }

    /// Sends `requests` in one write and returns their replies in order: one round trip for
    /// all. A connection the daemon refuses yields just the refusal.
    public func pipelined(_ requests: [JSONValue]) throws(ClientError) -> [JSONValue] {
        do {
            try sendRaw(requests.map { $0.serialized + "\n" }.concatenated())
        } catch {
            // A daemon that refuses a connection (another uid, too many clients) writes the
            // reason and closes at once, so the send can fail with the reason already here.
            if let reason = try? readLine(timeout: 1) { return [reason] }
            throw error
        }
        var replies: [JSONValue] = []
        let deadline = replyTimeout.map { Self.monotonicSeconds() + $0 }
        while replies.count < requests.count {
            do throws(ClientError) {
                let remaining = deadline.map { $0 - Self.monotonicSeconds() }
                guard let reply = try readLine(timeout: remaining) else {
                    throw .noReply(path: path, seconds: replyTimeout ?? 0)
                }
                replies.append(reply)
            } catch {
                if replies.isEmpty { throw error }
                break
            }
        }
        return replies
    }

    /// Reads the next line as JSON; nil when `timeout` (seconds) passes first.
    /// Throws `connectionLost` at end of stream.
    public func readLine(timeout: Double?) throws(ClientError) -> JSONValue? {
        guard let line = try readRawLine(timeout: timeout) else { return nil }
        do {
            return try JSONParser.parse(line.utf8)
        } catch {
            throw .malformedReply("\(error): \(line)")
        }
    }

    /// Reads the next line as text (without the newline); nil on timeout.
    public func readRawLine(timeout: Double?) throws(ClientError) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard try waitReadable(timeout: timeout) else { return nil }
            let count = recv(fd, receiveBuffer.baseAddress, receiveBuffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .connectionLost(count == 0 ? "end of stream" : Self.errnoText) }
            buffer.append(contentsOf: receiveBuffer[..<count])
        }
    }

    private func waitReadable(timeout: Double?) throws(ClientError) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // Rounded up: a reader that waits for a deadline must not wake before it.
        let milliseconds = timeout.map { Int32(min(86_400_000, (max(0, $0) * 1000).rounded(.up))) } ?? -1
        while true {
            let ready = poll(&pfd, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw .connectionLost(Self.errnoText) }
            return ready > 0
        }
    }

    /// CLOCK_MONOTONIC in seconds: reply deadlines must not move with the wall clock.
    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static var errnoText: String { String(cString: strerror(errno)) }
}
