import PlaybackModel

/// `playbackctl`'s exit codes: one per reply status (declared on `CommandStatus`), plus these.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The command line was wrong.
    public static let usage: Int32 = 2
    /// No daemon listens on the socket.
    public static let daemonNotRunning: Int32 = 8
    /// The connection broke or the reply was malformed.
    public static let protocolError: Int32 = 9
    /// The daemon accepted the connection but did not answer in time (`--timeout`).
    public static let noReply: Int32 = 10

    /// Every code with its meaning, in numeric order (for `--help` and docs/cli.md).
    public static var table: [(Int32, String)] {
        let statuses = CommandStatus.allCases.map { ($0.exitCode, "\($0.rawValue): \($0.summary)") }
        let others: [(Int32, String)] = [
            (usage, "usage error: unknown command, bad argument"),
            (daemonNotRunning, "playbackd is not running (nothing listens on the socket)"),
            (protocolError, "the connection broke or the reply was malformed"),
            (noReply, "playbackd accepted the connection but did not answer in time (--timeout)"),
        ]
        return (statuses + others).sorted { $0.0 < $1.0 }
    }
}
