import ControlProtocol
import Foundation
import Testing

/// A scrobbling service's stand-in from `Tests/servers/` (`listenbrainz_server.py`,
/// `lastfm_server.py`) on 127.0.0.1, on `port` when given (a server back where it was); each
/// request it answered is kept as the JSON line it printed.
final class ScrobbleStandIn {
    private let output: LineFollower
    let port: Int
    private var controls = 0

    init(_ script: String, _ arguments: [String], port: Int? = nil) throws {
        output = try LineFollower(
            ["/usr/bin/python3", TestEnvironment.packageRoot + "/Tests/servers/" + script] + arguments
                + (port.map { [String($0)] } ?? []))
        guard let line = output.waitForLine(starting: "port ", timeout: 20), let port = Int(line.text) else {
            throw TestFailure("\(script) did not start")
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// A ListenBrainz stand-in taking `token`, and the daemon's arguments to scrobble to it
    /// (the token in a 0600 file of its own).
    static func listenBrainz(token: String) throws -> (server: ScrobbleStandIn, arguments: [String]) {
        let tokenFile = TestEnvironment.makeTemporaryDirectory() + "/token"
        _ = FileManager.default.createFile(
            atPath: tokenFile, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600])
        let server = try ScrobbleStandIn("listenbrainz_server.py", [token])
        return (server, ["--listenbrainz-url", server.url, "--listenbrainz-token-file", tokenFile])
    }

    /// Every line printed so far, parsed once (an import's line is half a megabyte).
    private var parsed: [JSONValue] = []

    /// Every request so far, in order, as printed.
    var requests: [JSONValue] {
        let lines = output.lines(starting: "{")
        for line in lines.dropFirst(parsed.count) {
            parsed.append((try? JSONParser.parse(Array(("{" + line).utf8))) ?? .null)
        }
        return parsed.filter { $0["event"]?.stringValue != "control" }
    }

    /// The requests it accepted.
    var accepted: [JSONValue] { requests.filter { $0["event"]?.stringValue == "accepted" } }

    /// The requests it refused: `status` and `reason`.
    var refused: [JSONValue] { requests.filter { $0["event"]?.stringValue == "refused" } }

    /// Sends a control line (`status=503`) and waits until it is applied.
    func control(_ line: String) throws {
        controls += 1
        output.send(line)
        let applied = controls
        try waitUntil { output.lines(starting: "{\"event\": \"control\"").count >= applied }
    }
}
