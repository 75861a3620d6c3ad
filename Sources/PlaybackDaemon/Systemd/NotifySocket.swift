import CSystemShim
import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket to systemd's `NOTIFY_SOCKET` (a path, or `@name` in the abstract
/// namespace). Sends wait at most the timeout for room in the receiver's queue. The kernel
/// attaches our credentials, which the manager checks (`NotifyAccess=main`).
final class NotifySocket {
    private let fd: Int32
    private let address: UnixSocketAddress

    /// Nil for an address it cannot use (too long, not a path or an abstract name).
    init?(address text: String, timeout: Double) {
        guard let address = UnixSocketAddress(notifySocket: text) else { return nil }
        self.address = address
        fd = playbackd_unix_datagram_socket()
        guard fd >= 0 else { return nil }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends `message` as one datagram; false when it was dropped (the receiver is gone, or its
    /// queue stayed full for the whole timeout).
    @discardableResult
    func send(_ message: String) -> Bool {
        let bytes = Array(message.utf8)
        while true {
            let sent = address.withSockaddr { sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
            if sent >= 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
