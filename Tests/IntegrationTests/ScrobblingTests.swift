import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Scrobbling to ListenBrainz (issue 66) against `Tests/servers/listenbrainz_server.py`, a
    /// stand-in written from the service's API documentation: it refuses (400) every request
    /// that breaks a documented rule, so each accepted request is a valid one.
    @Suite struct Scrobbling {
        static let token = "3f0c5e4a-test-token-9b1d"

        /// A state directory holding `backlog` listens (written by `playbackd-bench`, as a
        /// history the daemon wrote), and a token file of mode `tokenMode`.
        final class World {
            let state = TestEnvironment.makeTemporaryDirectory()
            var tokenFile: String { state + "/listenbrainz.token" }
            var history: String { state + "/playbackd/history.sqlite" }

            init(backlog: Int, tokenMode: Int = 0o600) throws {
                try FileManager.default.createDirectory(
                    atPath: state + "/playbackd", withIntermediateDirectories: true)
                _ = FileManager.default.createFile(
                    atPath: tokenFile, contents: Data((Scrobbling.token + "\n").utf8),
                    attributes: [.posixPermissions: tokenMode])
                if backlog > 0 { try write(backlog) }
            }

            /// Adds `count` listens to the history (the daemon may be running).
            func write(_ count: Int) throws {
                let run = try CommandLineRun.run("playbackd-bench", ["history-backlog", history, String(count)])
                guard run.status == 0 else { throw TestFailure("the backlog was not written: \(run.stderr)") }
            }

            /// A daemon that scrobbles to the server at `url`.
            func daemon(_ url: String) throws -> DaemonProcess {
                try DaemonProcess(
                    arguments: ["--listenbrainz-url", url, "--listenbrainz-token-file", tokenFile],
                    environment: ["XDG_STATE_HOME": state])
            }
        }

        /// The listenbrainz entry of `scrobbleStatus`.
        static func status(_ daemon: DaemonProcess) throws -> JSONValue {
            try daemon.call("scrobbleStatus")["services"]?.arrayValue?.first {
                $0["service"]?.stringValue == "listenbrainz"
            } ?? .null
        }

        /// Every listen the server took, in order.
        static func listens(_ server: ScrobbleStandIn) -> [JSONValue] {
            server.accepted.filter { $0["type"]?.stringValue != "playing_now" }.flatMap {
                $0["listens"]?.arrayValue ?? []
            }
        }

        @Test(
            "10,000 listens waiting drain in at most 10 imports against a server taking one request a second, each listen once, the control socket answering throughout"
        )
        func backlogDrains() throws {
            let world = try World(backlog: 10_000)
            let server = try ScrobbleStandIn("listenbrainz_server.py", [Self.token])
            try server.control("limit=1&window=1")
            let daemon = try world.daemon(server.url)
            let started = Date()
            let client = try daemon.connect()
            var roundTrips: [Double] = []
            while Self.listens(server).count < 10_000 && Date().timeIntervalSince(started) < 120 {
                for _ in 0..<20 {
                    let sent = Date()
                    _ = try client.request(.object([("command", .string("nowPlaying"))]))
                    roundTrips.append(Date().timeIntervalSince(sent))
                    usleep(5_000)
                }
            }
            let drained = Date().timeIntervalSince(started)
            let listens = Self.listens(server)
            #expect(listens.count == 10_000, "\(listens.count) listens arrived")
            let stamps = Set(listens.compactMap { $0["listened_at"]?.numberValue })
            #expect(stamps.count == 10_000, "each listen once: \(stamps.count) distinct")
            #expect(server.accepted.count <= 10, "\(server.accepted.count) requests")
            #expect(server.accepted.allSatisfy { $0["type"]?.stringValue == "import" })
            #expect(server.refused.isEmpty, "the rate limit was kept: \(server.refused.map(\.serialized))")
            // Scripts/bench holds the targets (15 s, p99 1 ms). Here: the event loop never waited for
            // a request to the server, which takes a second each (a busy machine's slowest round
            // trip stays far below that).
            let slowest = roundTrips.max() ?? 0
            #expect(slowest < 0.5, "the slowest round trip took \(slowest * 1000) ms, during a drain of \(drained) s")
            try waitUntil { try Self.status(daemon)["pending"]?.numberValue == 0 }
            #expect(try Self.status(daemon)["lastSent"]?.numberValue != nil)
            // Nothing left to send: the scrobbler sleeps until a listen wakes it.
            try waitUntilQuiet(daemon.pid, for: 2)
        }

        @Test(
            "The server down (503, then refusing connections) across a kill -9: the five listens waiting arrive once, in one import; after a 429 the next request waits its Reset-In"
        )
        func outageAndRateLimit() throws {
            let world = try World(backlog: 5)
            var server: ScrobbleStandIn? = try ScrobbleStandIn("listenbrainz_server.py", [Self.token])
            let url = server!.url, port = server!.port
            try server!.control("status=503")
            let first = try world.daemon(server!.url)
            try waitUntil { server!.refused.count >= 1 }
            try waitUntil { try Self.status(first)["lastError"]?.stringValue?.contains("503") == true }
            first.signal(SIGKILL)
            _ = first.waitForExit(timeout: 10)
            server = nil  // connections are refused now

            let second = try world.daemon(url)
            try waitUntil { try Self.status(second)["lastError"]?.stringValue?.isEmpty == false }
            #expect(try Self.status(second)["pending"]?.numberValue == 5)
            let back = try ScrobbleStandIn("listenbrainz_server.py", [Self.token], port: port)
            try waitUntil(timeout: 30) { Self.listens(back).count >= 5 }
            #expect(back.accepted.count == 1 && back.accepted.first?["type"]?.stringValue == "import")
            let stamps = Self.listens(back).compactMap { $0["listened_at"]?.numberValue }
            #expect(Set(stamps).count == 5, "\(stamps)")
            try waitUntil { try Self.status(second)["pending"]?.numberValue == 0 }

            // A 429 with X-RateLimit-Reset-In: 2, then a listen to send.
            try back.control("once429=2")
            try world.write(1)
            second.signal(SIGHUP)
            try waitUntil(timeout: 30) { back.accepted.count == 2 }
            let refusedAt = back.refused.last?["at"]?.numberValue ?? 0
            let nextAt = back.accepted.last?["at"]?.numberValue ?? 0
            #expect(back.refused.last?["status"]?.numberValue == 429)
            #expect(nextAt - refusedAt >= 2, "the next request came \(nextAt - refusedAt) s after the 429")
            #expect(back.accepted.last?["type"]?.stringValue == "single")
        }

        @Test(
            "A token file others may read is refused with its reason; the token is in no log line, reply or command line; an endless answer or a silent server costs the worker, never the event loop"
        )
        func secretsAndHostileServers() throws {
            let world = try World(backlog: 1, tokenMode: 0o644)
            let server = try ScrobbleStandIn("listenbrainz_server.py", [Self.token])
            let daemon = try world.daemon(server.url)
            try waitUntil { try Self.status(daemon)["lastError"] != nil }
            let refused = try Self.status(daemon)
            #expect(refused["authorised"]?.boolValue == false)
            let reason = refused["lastError"]?.stringValue ?? ""
            #expect(reason.contains(world.tokenFile) && reason.contains("chmod 600"), "\(reason)")
            #expect(server.requests.isEmpty)

            chmod(world.tokenFile, 0o600)
            daemon.signal(SIGHUP)
            try waitUntil { Self.listens(server).count == 1 }
            #expect(try Self.status(daemon)["authorised"]?.boolValue == true)

            // A token the server refuses (401) stops the service until the token changes.
            try Data("not-the-token\n".utf8).write(to: URL(fileURLWithPath: world.tokenFile))
            try world.write(1)
            daemon.signal(SIGHUP)
            // A busy machine: the worker's refused request once took more than 10 s of 600 tests.
            try waitUntil(timeout: 60) { try Self.status(daemon)["authorised"]?.boolValue == false }
            #expect(try Self.status(daemon)["lastError"]?.stringValue?.contains("refused") == true)
            #expect(server.refused.last?["status"]?.numberValue == 401)
            try world.write(1)
            daemon.signal(SIGHUP)  // the same refused token: not tried again
            Thread.sleep(forTimeInterval: 1)
            #expect(server.refused.count == 1)
            #expect(try Self.status(daemon)["pending"]?.numberValue == 2)
            try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: world.tokenFile))
            daemon.signal(SIGHUP)
            try waitUntil { Self.listens(server).count == 3 }

            // An answer without end is cut off; the worker says so.
            try server.control("endless=1")
            try world.write(1)
            daemon.signal(SIGHUP)
            try waitUntil(timeout: 30) {
                try Self.status(daemon)["lastError"]?.stringValue?.contains("went on past") == true
            }
            // A server that never answers: the worker waits, the event loop does not.
            try server.control("endless=0&silent=1")
            try waitUntil(timeout: 30) { server.requests.contains { $0["event"]?.stringValue == "held" } }
            let client = try daemon.connect()
            for _ in 0..<50 {
                let sent = Date()
                _ = try client.request(.object([("command", .string("scrobbleStatus"))]))
                #expect(Date().timeIntervalSince(sent) < 1, "the event loop waited on the network")
            }
            let cmdline = (try? String(contentsOfFile: "/proc/\(daemon.pid)/cmdline", encoding: .isoLatin1)) ?? ""
            let reply = try daemon.call("scrobbleStatus").serialized + (try daemon.call("listeningHistory").serialized)
            #expect(!cmdline.isEmpty && !cmdline.contains(Self.token))
            #expect(!reply.contains(Self.token))
            // Stopping cuts the hung request short.
            let stopping = Date()
            daemon.signal(SIGTERM)
            #expect(daemon.waitForExit(timeout: 20) == 0)
            #expect(Date().timeIntervalSince(stopping) < 10, "the exit waited on the network")
            #expect(!daemon.stderrText.contains(Self.token), "the token is in the log")
            #expect(!daemon.stderrText.contains("threads still running"))
        }
    }
}

extension IntegrationSuite.Scrobbling {
    @Test(
        "Last.fm: scrobble-login keeps the session (0600, never shown); 120 listens go in signed batches of at most 50; updateNowPlaying is sent once, not retried"
    )
    func lastFM() throws {
        let world = try World(backlog: 120)
        let secretFile = world.state + "/lastfm.secret"
        _ = FileManager.default.createFile(
            atPath: secretFile, contents: Data("s3cr3t-shared\n".utf8), attributes: [.posixPermissions: 0o600])
        let server = try ScrobbleStandIn("lastfm_server.py", ["test-api-key", "s3cr3t-shared"])
        let daemon = try DaemonProcess(
            arguments: [
                "--lastfm-url", server.url + "/2.0/", "--lastfm-auth-url", server.url + "/auth/",
                "--lastfm-api-key", "test-api-key", "--lastfm-api-secret-file", secretFile,
            ],
            environment: ["XDG_STATE_HOME": world.state])
        let status = { () throws -> JSONValue in
            try daemon.call("scrobbleStatus")["services"]?.arrayValue?.first {
                $0["service"]?.stringValue == "lastfm"
            } ?? .null
        }
        try waitUntil { try status()["lastError"]?.stringValue?.contains("scrobble-login") == true }
        #expect(try status()["authorised"]?.boolValue == false)

        // The desktop flow, as a user runs it: the address printed, allowed in a browser.
        let login = try LineFollower([
            TestEnvironment.binDirectory + "/playbackctl", "--socket", daemon.socketPath, "scrobble-login", "lastfm",
        ])
        let address = login.waitForLine(starting: server.url + "/auth/?", timeout: 20)?.text ?? ""
        let token = address.components(separatedBy: "token=").last ?? ""
        #expect(address.contains("api_key=test-api-key") && !token.isEmpty, "printed: \(login.allLines)")
        try server.control("approve=" + token)
        #expect(login.waitForLine(starting: "authorised", timeout: 30) != nil, "printed: \(login.allLines)")
        let sessionPath = world.state + "/playbackd/lastfm.session"
        let attributes = try FileManager.default.attributesOfItem(atPath: sessionPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let session =
            (try? String(contentsOfFile: sessionPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? ""
        #expect(session.count == 32, "the session key is kept")
        #expect(!login.allLines.joined().contains(session) && !daemon.stderrText.contains(session))

        try waitUntil(timeout: 30) { try status()["pending"]?.numberValue == 0 }
        let batches = server.accepted.filter { $0["method"]?.stringValue == "track.scrobble" }
        #expect(batches.compactMap { $0["count"]?.numberValue } == [50, 50, 20])
        #expect(server.refused.isEmpty, "every call signed and well formed: \(server.refused.map(\.serialized))")
        #expect(try status()["authorised"]?.boolValue == true)

        // Now playing, refused once (503): not sent again.
        try server.control("nowplaying503=1")
        _ = try daemon.enqueue(["sine1k.mp3"])
        _ = try daemon.call("play")
        let nowPlaying = { server.requests.filter { $0["method"]?.stringValue == "track.updateNowPlaying" } }
        try waitUntil { nowPlaying().count == 1 }
        Thread.sleep(forTimeInterval: 3)
        #expect(nowPlaying().count == 1, "\(nowPlaying().map(\.serialized))")
        #expect(nowPlaying().first?["error"]?.numberValue == 16)
    }
}

extension IntegrationSuite.Scrobbling {
    @Test(
        "scrobble-streams: each 'Artist - Title' a live ICY stream plays for 30 s is a listen, sent to ListenBrainz; a title without an artist and the stream itself are none"
    )
    func streamTitles() throws {
        let world = try World(backlog: 0)
        let server = try ScrobbleStandIn("listenbrainz_server.py", [Self.token])
        let radio = try StreamServer()
        let daemon = try DaemonProcess(
            arguments: [
                "--scrobble-streams", "true", "--listenbrainz-url", server.url, "--listenbrainz-token-file",
                world.tokenFile,
            ],
            environment: ["XDG_STATE_HOME": world.state])
        // 192 kbps sent eight times faster than it plays, to the unpaced capture device: each
        // title, 5 s of the server's time, is 40 s of the stream heard.
        let url = radio.url(
            "live/long.mp3?metaint=8000&titles=Artist%20A%20-%20Song%20A|Artist%20B%20-%20Song%20B|Jingle&every=5&rate=192000"
        )
        _ = try daemon.call("enqueue", [("items", .array([.string(url)])), ("play", .bool(true))])
        try waitUntil(timeout: 60) { Self.listens(server).count >= 2 }
        _ = try daemon.call("stop")
        let sent = Self.listens(server).compactMap { $0["track_metadata"] }
        #expect(
            sent.map { "\($0["artist_name"]?.stringValue ?? "") - \($0["track_name"]?.stringValue ?? "")" }
                == ["Artist A - Song A", "Artist B - Song B"], "\(sent.map(\.serialized))")
        let history = try daemon.call("listeningHistory")["listens"]?.arrayValue ?? []
        let listens = history.filter { $0["listen"]?.boolValue == true }.compactMap { $0["title"]?.stringValue }
        #expect(listens.sorted() == ["Song A", "Song B"], "\(history.map(\.serialized))")
        let stream = history.filter { $0["ending"] != nil }
        #expect(stream.count == 1 && stream.first?["listen"]?.boolValue == false, "the stream's own hearing")
        #expect(server.refused.isEmpty)
    }
}
