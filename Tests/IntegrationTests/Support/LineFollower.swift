import Foundation

/// A process whose standard output is kept line by line, each line with the time it arrived:
/// a server's log, `playerctl --follow`. Killed (SIGKILL: it inherits the test runner's
/// blocked signals, SIGTERM among them) when released.
final class LineFollower {
    private let process = Process()
    private let log = LineLog()
    private let input = Pipe()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = TestEnvironment.marked(ProcessInfo.processInfo.environment.merging(environment) { $1 })
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [log] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 10) {
                    log.add(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Writes `line` and a newline to the process's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Every line so far, in order.
    var allLines: [String] { log.lines(starting: "").map(\.text) }

    /// The rest of each line that starts with `prefix`, in order.
    func lines(starting prefix: String) -> [String] { log.lines(starting: prefix).map(\.text) }

    /// The first line that starts with `prefix` and when it arrived, waiting up to `timeout`
    /// seconds for it.
    func waitForLine(starting prefix: String, timeout: Double) -> (text: String, arrived: Date)? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let line = log.lines(starting: prefix).first { return line }
            usleep(10_000)
        } while Date() < deadline
        return nil
    }
}

/// Lines a reader thread adds and a test reads.
private final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(text: String, arrived: Date)] = []

    func add(_ line: String) {
        lock.lock()
        lines.append((line, Date()))
        lock.unlock()
    }

    func lines(starting prefix: String) -> [(text: String, arrived: Date)] {
        lock.lock()
        defer { lock.unlock() }
        return lines.compactMap {
            $0.text.hasPrefix(prefix) ? (String($0.text.dropFirst(prefix.count)), $0.arrived) : nil
        }
    }
}
