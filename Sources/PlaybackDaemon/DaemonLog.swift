import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon's log lines go and from which level; a reload changes both. Used on the
/// event loop only.
public final class LogOutput {
    var threshold: DaemonLog.Level
    var target: LogTarget
    private let identifier = "playbackd"

    init(threshold: DaemonLog.Level, target: LogTarget) {
        self.threshold = threshold
        self.target = target
    }

    /// Whether lines go to the journal: asked for, or `auto` and `JOURNAL_STREAM` names the
    /// device and inode of our stderr (systemd connected it to the journal).
    var usesJournal: Bool {
        switch target {
        case .journal: true
        case .stderr: false
        case .auto: Self.stderrIsJournal
        }
    }

    static let stderrIsJournal: Bool = {
        guard let stream = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = stream.split(separator: ":")
        var info = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
            fstat(STDERR_FILENO, &info) == 0
        else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }()

    /// Whether a line at `level` is written: asked before the line is built.
    func accepts(_ level: DaemonLog.Level) -> Bool { level <= threshold }

    /// Writes a line the caller has checked with `accepts(_:)`.
    func write(_ level: DaemonLog.Level, label: String, _ message: String, fields: [(String, String)]) {
        if usesJournal && sendToJournal(level, label: label, message, fields: fields) { return }
        let line = "<\(level.rawValue)>\(label): \(message)\n"
        _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// One structured entry: MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, PLAYBACKD_LOGGER and the
    /// caller's PLAYBACKD_* fields. False when the journal cannot be reached.
    private func sendToJournal(
        _ level: DaemonLog.Level, label: String, _ message: String, fields: [(String, String)]
    ) -> Bool {
        var entries = [
            "MESSAGE=\(message)", "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=\(identifier)",
            "PLAYBACKD_LOGGER=\(label)",
        ]
        entries += fields.map { "\($0.0)=\($0.1)" }
        var storage = entries.map { Array($0.utf8) }
        let result = storage.withUnsafeMutableBufferPointer { buffers -> Int32 in
            var vectors = buffers.indices.map { index in
                buffers[index].withUnsafeMutableBytes { iovec(iov_base: $0.baseAddress, iov_len: $0.count) }
            }
            return sd_journal_sendv(&vectors, Int32(vectors.count))
        }
        return result >= 0
    }
}

/// The daemon's one way to write log lines, with a label (`playbackd.control`). Library
/// targets return errors instead; the daemon decides what to say. On stderr each line is
/// `<priority>label: message`, the prefix `sd-daemon(3)` reads as the priority; in the journal
/// each is a structured entry with `PLAYBACKD_EVENT=` and `PLAYBACKD_TRACK=` where given.
public struct DaemonLog {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        public var name: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    let label: String
    let output: LogOutput

    /// Writes one line if `level` passes the threshold. The message is built only then: a
    /// debug line costs nothing while debug logging is off.
    func log(_ level: Level, _ message: @autoclosure () -> String, event: String? = nil, track: String? = nil) {
        guard output.accepts(level) else { return }
        var fields: [(String, String)] = []
        if let event { fields.append(("PLAYBACKD_EVENT", event)) }
        if let track { fields.append(("PLAYBACKD_TRACK", track)) }
        output.write(level, label: label, message(), fields: fields)
    }

    func error(_ message: @autoclosure () -> String, event: String? = nil) { log(.error, message(), event: event) }
    func warning(_ message: @autoclosure () -> String, event: String? = nil) { log(.warning, message(), event: event) }
    func notice(_ message: @autoclosure () -> String, event: String? = nil) { log(.notice, message(), event: event) }
    func info(_ message: @autoclosure () -> String, event: String? = nil) { log(.info, message(), event: event) }
}
