import Foundation

/// `Tests/servers/stream_server.py` on 127.0.0.1 (HTTPS with `certificate` and `key`), serving
/// `root` (the fixtures by default); its output lines (requests, titles sent) are kept for the
/// test to read.
final class StreamServer {
    private let output: LineFollower
    let port: Int
    let scheme: String

    init(root: String = TestEnvironment.fixtures, certificate: String? = nil, key: String? = nil) throws {
        scheme = certificate == nil ? "http" : "https"
        output = try LineFollower(
            ["/usr/bin/python3", TestEnvironment.packageRoot + "/Tests/servers/stream_server.py", root]
                + [certificate, key].compactMap { $0 })
        guard let line = output.waitForLine(starting: "port ", timeout: 20), let port = Int(line.text) else {
            throw TestFailure("the stream server did not start")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(path)" }

    /// The rest of each output line that starts with `prefix`, in order.
    func lines(starting prefix: String) -> [String] { output.lines(starting: prefix) }
}
