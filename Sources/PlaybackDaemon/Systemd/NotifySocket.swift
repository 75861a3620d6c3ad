#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket to systemd's `NOTIFY_SOCKET`: a file-system path (`/run/...`) or an
/// abstract name (`@...`). Sends wait at most the timeout for room in the receiver's queue.
/// The kernel attaches our credentials, which the manager checks (`NotifyAccess=main`).
final class NotifySocket {
    private let fd: Int32
    private var address = sockaddr_un()
    private let length: socklen_t

    /// Nil for an address it cannot use (too long, not a path or an abstract name).
    init?(address text: String, timeout: Double) {
        var name = Array(text.utf8)
        guard let first = name.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        if first == UInt8(ascii: "@") { name[0] = 0 }  // abstract namespace: a leading NUL
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (first == UInt8(ascii: "/") ? 1 : 0))
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
            let sent = withUnsafePointer(to: address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
            if sent >= 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
