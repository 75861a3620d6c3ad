import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One connected client: its line framing and its bounded queue of unsent output.
final class ClientConnection {
    let fd: Int32
    /// After `subscribe`, pushed events go to this client too.
    var isSubscribed = false
    /// The client sent EOF; close once the replies are flushed.
    var readClosed = false
    /// A request of this client is being answered in the background (enqueue): its later
    /// lines wait in `heldLines`, and nothing more is read, until the reply is sent.
    var isAwaitingReply = false
    var heldLines: [Line] = []
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

    /// Queues `bytes`; false when the client has let too much pile up (it must be dropped).
    /// A reply always fits: the client asked for it and reads it next; the bound is for
    /// pushed events that a subscriber does not read.
    func enqueue(_ bytes: [UInt8], isReply: Bool) -> Bool {
        if sent > 0 && sent >= output.count / 2 {
            output.removeFirst(sent)
            sent = 0
        }
        output.append(contentsOf: bytes)
        return isReply || output.count - sent <= ProtocolLimits.maximumPendingOutputBytes
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
