import ControlClient
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `library update --wait` and `library analyze --wait`: follows the scan (or the loudness
/// analysis) through the pushed `library` changes until the library is idle (or has nothing
/// left to measure). On a terminal a bar of the files read against those to read (the songs
/// measured against those to measure) is redrawn in place; otherwise nothing is printed until
/// the end. Ends with the status.
struct LibraryProgress {
    let path: String
    /// Whether standard output is a terminal (the bar is drawn only there).
    let isTerminal: Bool
    /// Whether it follows the loudness analysis rather than the scan.
    var followsAnalysis = false

    func follow() throws(ClientError) -> Int32 {
        let events = try ControlClient(path: path)
        events.replyTimeout = nil
        _ = try events.request(.object([("command", .string(CommandName.subscribe.rawValue))]))
        var status = try currentStatus()
        while followsAnalysis ? status.toMeasure > 0 : status.state == .scanning {
            guard let line = try events.readLine(timeout: nil) else {
                throw .connectionLost("the daemon closed the connection")
            }
            guard let json = line["library"], let pushed = try? LibraryStatus(json: json) else { continue }
            status = pushed
            if isTerminal { Console.out("\r" + (followsAnalysis ? Self.analysisBar(status) : Self.bar(status))) }
        }
        if isTerminal { Console.out("\r\u{1B}[K") }
        Console.out(LibraryOutput.status(status))
        return ExitCode.success
    }

    private func currentStatus() throws(ClientError) -> LibraryStatus {
        let client = try ControlClient(path: path)
        let reply = try client.request(.object([("command", .string(CommandName.libraryStatus.rawValue))]))
        do { return try LibraryStatus(json: reply["library"] ?? .null) } catch {
            throw .malformedReply(error.description)
        }
    }

    /// `[########............]  1,234 / 5,000 songs measured`: the songs measured against those
    /// measured and those the pass has still to measure.
    static func analysisBar(_ status: LibraryStatus, width: Int = 30) -> String {
        let total = status.measured + status.toMeasure
        let done = total > 0 ? min(width, status.measured * width / total) : width
        return "[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "]  "
            + "\(status.measured) / \(total) songs measured"
    }

    /// `[########............]  1,234 / 5,000 files`, or the count alone before the walk ends.
    static func bar(_ status: LibraryStatus, width: Int = 30) -> String {
        guard status.toRead > 0 else { return "scanning: \(status.scanned) files read" }
        let done = min(width, status.scanned * width / status.toRead)
        return "[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "]  "
            + "\(status.scanned) / \(status.toRead) files"
    }
}
