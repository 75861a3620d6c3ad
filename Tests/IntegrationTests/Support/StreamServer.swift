import Foundation

/// `Tests/servers/stream_server.py` on 127.0.0.1 (HTTPS with `certificate` and `key`), serving
/// `root` (the fixtures by default); its output lines (requests, titles sent) are kept for the test to read.
final class StreamServer {
    private let process = Process()
    private let log = LineLog()
    private(set) var port = 0
    let scheme: String

    init(root: String = TestEnvironment.fixtures, certificate: String? = nil, key: String? = nil) throws {
        scheme = certificate == nil ? "http" : "https"
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [TestEnvironment.packageRoot + "/Tests/servers/stream_server.py", root]
            + [certificate, key].compactMap { $0 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let ready = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [log] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    log.add(line)
                    if line.hasPrefix("port ") { ready.signal() }
                }
            }
        }
        guard ready.wait(timeout: .now() + 20) == .success,
            let port = log.lines(starting: "port ").first.flatMap({ Int($0) })
        else { throw TestFailure("the stream server did not start") }
        self.port = port
    }

    /// SIGKILL: the server inherits the test runner's blocked signals, SIGTERM among them.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(path)" }

    /// The rest of each output line that starts with `prefix`, in order.
    func lines(starting prefix: String) -> [String] { log.lines(starting: prefix) }
}

/// Lines a reader thread adds and a test reads.
private final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    func lines(starting prefix: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines.compactMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }
}
