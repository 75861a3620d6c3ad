import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One connected client's bytes: its line framing and its queue of unsent output (which
/// `SocketServer` bounds).
final class ClientConnection {
    let fd: Int32
    /// The client sent EOF; close once the replies are flushed.
    var readClosed = false
    private var input: [UInt8] = []
    /// Discarding the rest of a line that exceeded the limit.
    private var discarding = false
    /// Queued output; the first `sent` bytes of it are already written.
    private var output: [UInt8] = []
    private var sent = 0

    init(fd: Int32) {
        self.fd = fd
    }

    /// A complete request line, or a line that was too long.
    enum Line {
        case request(ArraySlice<UInt8>)
        case tooLong
    }

    /// Appends received bytes and returns the complete lines they finish.
    func receive(_ bytes: UnsafeRawBufferPointer) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    var line = input[...]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    lines.append(.request(line))
                }
                input.removeAll(keepingCapacity: true)
            } else if !discarding {
                input.append(byte)
                if input.count > ProtocolLimits.maximumLineBytes {
                    discarding = true
                    input.removeAll(keepingCapacity: false)
                    lines.append(.tooLong)
                }
            }
        }
        return lines
    }

    /// Queues `bytes`.
    func enqueue(_ bytes: [UInt8]) {
        if sent > 0 && sent >= output.count / 2 {
            output.removeFirst(sent)
            sent = 0
        }
        output.append(contentsOf: bytes)
    }

    /// Writes as much queued output as the socket takes. False on a write error.
    func flush() -> Bool {
        while sent < output.count {
            let written = output.withUnsafeBytes {
                send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
            }
            sent += written
        }
        output.removeAll(keepingCapacity: output.capacity <= 65_536)
        sent = 0
        return true
    }

    var hasPendingOutput: Bool { sent < output.count }

    /// Bytes queued and not written yet.
    var pendingOutputBytes: Int { output.count - sent }
}
