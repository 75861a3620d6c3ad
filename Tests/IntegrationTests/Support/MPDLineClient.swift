import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client of MPD's protocol on a Unix socket, reading replies as MPD's clients do: lines
/// until `OK` or an `ACK` line. For what mpc cannot send (command lists, malformed lines,
/// `idle` and `noidle` on one connection).
final class MPDLineClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The greeting line.
    private(set) var greeting = ""

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw TestFailure("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        greeting = try readLine() ?? ""
    }

    deinit { close(fd) }

    /// Sends `text` as it is (lines with their newlines).
    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The lines of one reply, its `OK` or `ACK` line last; nil when the server closed.
    func reply() throws -> [String]? {
        var lines: [String] = []
        while let line = try readLine() {
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
        return lines.isEmpty ? nil : lines
    }

    /// Sends one command line and reads its reply.
    func call(_ line: String) throws -> [String] {
        send(line + "\n")
        guard let lines = try reply() else { throw TestFailure("the server closed the connection after '\(line)'") }
        return lines
    }

    /// The next `count` bytes as they come (a binary chunk).
    func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { throw TestFailure("the stream ended within a binary chunk") }
            buffer += chunk[..<read]
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// The next line, without its newline; nil at the end of the stream.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestFailure("no reply within 10 s (\(String(cString: strerror(errno))))") }
            buffer += chunk[..<count]
        }
    }
}
