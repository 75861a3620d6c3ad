#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's one place that writes log lines (to stderr, which systemd sends to the
/// journal). Library targets return errors instead; the daemon decides what to say.
public struct DaemonLog: Sendable {
    public enum Level: Int, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    let label: String
    let threshold: Level

    /// Writes `<priority>label: message`, the prefix `sd-daemon(3)` reads as the priority.
    func log(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        let line = "<\(level.rawValue)>\(label): \(message)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    func error(_ message: String) { log(.error, message) }
    func warning(_ message: String) { log(.warning, message) }
    func notice(_ message: String) { log(.notice, message) }
    func info(_ message: String) { log(.info, message) }
}
