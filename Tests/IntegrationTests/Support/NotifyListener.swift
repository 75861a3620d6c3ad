import Foundation

/// A `NOTIFY_SOCKET` the test owns: receives the daemon's `sd_notify` datagrams.
final class NotifyListener {
    let path: String
    private let fd: Int32
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("cannot bind notify socket \(path)") }
    }

    deinit { close(fd) }

    /// Every datagram that arrives within `seconds` (they are also kept in `messages`).
    func collect(for seconds: Double) -> [String] {
        let start = messages.count
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { messages.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        return Array(messages[start...])
    }

    /// Waits until a datagram containing `text` arrives; false after `timeout` seconds.
    func waitFor(_ text: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !messages.contains(where: { $0.contains(text) }) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { messages.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        return true
    }
}
