import ControlClient
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `playbackctl watch`: subscribes, prints a line for every pushed change and, when the format
/// shows the position, at each second boundary while playing. Survives the daemon going away:
/// prints the offline line, then reconnects with a growing delay.
public struct WatchSession {
    let path: String
    let format: SnapshotFormat
    let maxWidth: Int?
    let offlineText: String

    /// Reconnection delays grow from the first to the last, doubling.
    static let firstRetryDelay = 0.1
    static let lastRetryDelay = 2.0

    public init(path: String, format: SnapshotFormat, maxWidth: Int?, offlineText: String) {
        self.path = path
        self.format = format
        self.maxWidth = maxWidth
        self.offlineText = offlineText
    }

    /// Runs until standard output is closed or a signal ends it; returns the exit code.
    public func run() -> Int32 {
        Self.unblockTerminationSignals()
        var printer = LinePrinter(dedupe: format != .json)
        var retryDelay = Self.firstRetryDelay
        while true {
            do throws(ClientError) {
                let client = try ControlClient(path: path)
                let reply = try client.request(.object([("command", .string(CommandName.subscribe.rawValue))]))
                guard reply["status"]?.stringValue == CommandStatus.success.rawValue, let first = reply["nowPlaying"]
                else {
                    throw ClientError.connectionLost(reply["message"]?.stringValue ?? "subscription refused")
                }
                retryDelay = Self.firstRetryDelay
                guard try follow(client, from: first, printer: &printer) else { return ExitCode.success }
            } catch {
                if case .connectionLost(let reason) = error { Console.error("playbackctl: watch: \(reason)\n") }
                if case .malformedReply(let reason) = error { Console.error("playbackctl: watch: \(reason)\n") }
                if case .foreignSocket = error { Console.error("playbackctl: watch: \(error)\n") }
            }
            guard printer.print(format.offlineLine(offlineText)) else { return ExitCode.success }
            sleep(seconds: retryDelay)
            retryDelay = min(Self.lastRetryDelay, retryDelay * 2)
        }
    }

    /// Prints until the connection ends (throws) or standard output closes (returns false).
    private func follow(
        _ client: ControlClient, from first: JSONValue, printer: inout LinePrinter
    ) throws(ClientError) -> Bool {
        var snapshot = first
        while true {
            let now = WallClock.now()
            let view: SnapshotView
            do { view = try SnapshotView(snapshot, now: now) } catch { throw .malformedReply(error.description) }
            guard printer.print(lineText(view)) else { return false }
            var timeout: Double? = nil
            if format.followsPosition, let boundary = TickSchedule.nextBoundary(view.nowPlaying, after: now) {
                timeout = max(0, boundary + TickSchedule.margin - WallClock.now())
            }
            if let event = try client.readLine(timeout: timeout), let nowPlaying = event["nowPlaying"] {
                snapshot = nowPlaying
            }
        }
    }

    private func lineText(_ view: SnapshotView) -> String {
        RenderedPiece.singleLine(format.line(view, maxWidth: maxWidth))
    }

    /// A long-running child inherits its parent's signal mask; a bar or test harness that
    /// blocks SIGTERM would otherwise be unable to stop it.
    private static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&signals, signal) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    private func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// Writes lines to standard output, skipping a line equal to the one before it.
struct LinePrinter {
    let dedupe: Bool
    private var last: String?

    init(dedupe: Bool) { self.dedupe = dedupe }

    /// False when standard output is closed.
    mutating func print(_ line: String) -> Bool {
        if dedupe && line == last { return true }
        last = line
        return Console.out(line + "\n")
    }
}
