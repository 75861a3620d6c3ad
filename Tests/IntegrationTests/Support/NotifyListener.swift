import ControlProtocol
import Foundation

/// A `NOTIFY_SOCKET` the test owns: receives the daemon's `sd_notify` datagrams.
///
/// A thread reads every datagram as it arrives, as systemd does. A receiver that reads only
/// while a test waits lets the kernel's datagram queue (`net.unix.max_dgram_qlen`, 10 here)
/// fill, and then the daemon's next `sd_notify` blocks its event loop (seen with 20 SIGHUPs).
final class NotifyListener {
    let path: String
    private let inbox: Inbox

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = UnixSocketAddress(path: path)!.bind(fd)
        inbox = Inbox(fd: fd)
        guard bound == 0 else { throw TestFailure("cannot bind notify socket \(path)") }
        let inbox = self.inbox
        Thread { inbox.readUntilStopped() }.start()
    }

    deinit { inbox.stop() }

    /// Every datagram received so far, in order.
    var messages: [String] { inbox.messages }

    /// Every datagram that arrives within `seconds` (they are also kept in `messages`).
    func collect(for seconds: Double) -> [String] {
        let start = messages.count
        Thread.sleep(forTimeInterval: seconds)
        return Array(messages[start...])
    }

    /// Waits until a datagram containing `text` has arrived; false after `timeout` seconds.
    func waitFor(_ text: String, timeout: Double) -> Bool {
        inbox.waitFor(text, until: Date().addingTimeInterval(timeout))
    }
}

/// The socket, what arrived on it, and the thread reading it (which keeps it alive).
private final class Inbox: @unchecked Sendable {
    private let fd: Int32
    private var stopPipe: [Int32] = [-1, -1]
    private let condition = NSCondition()
    private var received: [String] = []
    private var isReading = true

    init(fd: Int32) {
        self.fd = fd
        pipe(&stopPipe)
    }

    deinit {
        close(fd)
        stopPipe.forEach { close($0) }
    }

    var messages: [String] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    func waitFor(_ text: String, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !received.contains(where: { $0.contains(text) }) {
            guard condition.wait(until: deadline) else { return received.contains { $0.contains(text) } }
        }
        return true
    }

    /// Ends the reader and waits for it.
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
        condition.lock()
        while isReading { condition.wait() }
        condition.unlock()
    }

    func readUntilStopped() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { break }
            guard fds[0].revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            condition.lock()
            received.append(String(decoding: buffer[..<count], as: UTF8.self))
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        isReading = false
        condition.broadcast()
        condition.unlock()
    }
}
