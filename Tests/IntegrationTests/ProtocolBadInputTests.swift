import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Acceptance 4, part 2: malformed input gets a clear badRequest (or a disconnect), and
    /// nothing else is affected: the queue and the position survive all of it.
    @Suite struct ProtocolBadInput {
        static let badLines: [(String, String)] = [
            (#"{"command": "play""#, "invalid JSON"),
            (#"[1, 2]"#, "must be a JSON object"),
            (#""play""#, "must be a JSON object"),
            (#"{"id": 1}"#, "missing 'command'"),
            (#"{"command": 7}"#, "'command' must be a string"),
            (#"{"command": "fly"}"#, "unknown command 'fly'"),
            (#"{"command": "skipForward", "interval": "5"}"#, "'interval' must be a number, got a string"),
            (#"{"command": "skipForward", "interval": -5}"#, "'interval' must be greater than 0"),
            (#"{"command": "changePlaybackPosition"}"#, "requires 'position'"),
            (#"{"command": "changePlaybackPosition", "position": -1}"#, "must not be negative"),
            (#"{"command": "enqueue", "items": "a.mp3"}"#, "'items' must be a array of strings"),
            (#"{"command": "enqueue", "items": [1]}"#, "'items' must be a array of strings"),
            (#"{"command": "enqueue", "items": []}"#, "'items' must not be empty"),
            (#"{"command": "enqueue", "items": ["/a.mp3"], "replace": "yes"}"#, "'replace' must be a boolean"),
            (#"{"command": "play", "speed": 2}"#, "unknown argument 'speed' for play"),
            (#"{"command": "setCommandEnabled", "name": "dance", "enabled": true}"#, "'name' must be a command name"),
            (#"{"command": "play", "id": {"a": 1}}"#, "'id' must be a string or a number"),
            (String(repeating: "[", count: 10_000), "nesting deeper than 64"),
            ("{\"command\": \"play\"} trailing", "unexpected trailing data"),
        ]

        @Test("each malformed line gets badRequest with a clear message; state is untouched")
        func malformedLines() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(7.5))])
            let client = try daemon.connect()
            for (line, expected) in Self.badLines {
                try client.sendRaw(line + "\n")
                let reply = try #require(try client.readLine(timeout: 5))
                #expect(reply["status"]?.stringValue == "badRequest", "\(line)")
                let message = reply["message"]?.stringValue ?? ""
                #expect(message.contains(expected), "\(line) -> \(message)")
            }
            try expectStateKept(daemon)
        }

        @Test("the id of a rejected request is echoed when it can be read")
        func idIsEchoedOnErrors() throws {
            let daemon = try DaemonProcess()
            let reply = try daemon.connect().request(.object([("id", .string("abc")), ("command", .string("nope"))]))
            #expect(reply["id"] == .string("abc"))
            #expect(reply["status"]?.stringValue == "badRequest")
        }

        @Test("a line over 64 KiB is refused and the connection keeps working")
        func oversizedLine() throws {
            let daemon = try DaemonProcess()
            let client = try daemon.connect()
            try client.sendRaw(#"{"command":"enqueue","items":[""# + String(repeating: "x", count: 70_000) + "\"]}\n")
            let reply = try #require(try client.readLine(timeout: 5))
            #expect(reply["status"]?.stringValue == "badRequest")
            #expect(reply["message"]?.stringValue == "request line longer than 65536 bytes")
            #expect(
                try client.request(.object([("command", .string("nowPlaying"))]))["status"]?.stringValue == "success")
        }

        @Test("invalid UTF-8 is refused")
        func invalidUTF8() throws {
            let daemon = try DaemonProcess()
            let client = try daemon.connect()
            try client.sendRaw(
                "{\"command\": \"play\", \"x\": \"\u{FFFD}\"}\n".replacingOccurrences(of: "\u{FFFD}", with: "\u{00E9}"))
            _ = try client.readLine(timeout: 5)
            let raw = try Self.rawExchange(
                daemon, bytes: Array(#"{"command":"nowPlaying","id":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
            #expect(raw.contains("\"status\":\"badRequest\""))
            #expect(raw.contains("not valid UTF-8"))
        }

        @Test("pipelined requests are answered once each, in order; a half-closed client still gets its replies")
        func pipelinedAndHalfClosed() throws {
            let daemon = try DaemonProcess()
            let client = try daemon.connect()
            try client.sendRaw((0..<50).map { #"{"id":\#($0),"command":"nowPlaying"}"# }.joined(separator: "\n") + "\n")
            client.finishSending()
            for index in 0..<50 {
                let reply = try #require(try client.readLine(timeout: 5))
                #expect(reply["id"] == .number(Double(index)))
            }
            #expect(throws: ClientError.self) { try client.readLine(timeout: 5) }
        }

        @Test("silent, vanishing and surplus clients affect no one else")
        func silentVanishingAndSurplusClients() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(7.5))])
            let silent = try daemon.connect()
            do {
                let vanishing = try daemon.connect()
                try vanishing.sendRaw(#"{"command":"cle"#)
            }
            try expectStateKept(daemon)  // a round trip: the vanished client's close is handled by now
            var crowd: [ControlClient] = []
            for _ in 0..<(ProtocolLimits.maximumClients - 2) { crowd.append(try daemon.connect()) }
            // The last place: a connection closed just before (each `call` opens its own) holds
            // one until the daemon has read its close, which may come after later connections
            // (a CI run saw it); a refused client is closed, and tries again.
            var answered = false
            let deadline = Date().addingTimeInterval(5)
            while !answered && Date() < deadline {
                let client = try daemon.connect()
                answered =
                    try client.request(.object([("command", .string("queue"))]))["status"]?.stringValue == "success"
                if answered { crowd.append(client) } else { Thread.sleep(forTimeInterval: 0.02) }
            }
            #expect(answered, "the 64th client is served")
            // The same race for the surplus: a place freed late serves it silently; the next
            // one is refused, with the reason.
            var refusal: JSONValue?
            let surplusDeadline = Date().addingTimeInterval(10)
            while refusal == nil && Date() < surplusDeadline {
                let surplus = try daemon.connect()
                if let line = try surplus.readLine(timeout: 1) { refusal = line } else { crowd.append(surplus) }
            }
            #expect(
                refusal?["message"]?.stringValue == "too many clients (at most 64)", "\(String(describing: refusal))")
            let last = try crowd[0].request(.object([("command", .string("nowPlaying"))]))
            #expect(last["nowPlaying"]?["elapsed"]?.numberValue == 7.5)
            #expect(last["nowPlaying"]?["queueCount"]?.numberValue == 2)
            crowd.removeAll()
            _ = silent
        }

        @Test("the socket is private and another uid is refused (SO_PEERCRED)")
        func otherUIDIsRefused() throws {
            let daemon = try DaemonProcess()
            var info = stat()
            #expect(stat(daemon.socketPath, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
            guard getuid() == 0 else { return }  // only root can act as another uid here
            // Open the file permissions so that only the daemon's peer-credential check stands.
            chmod(daemon.directory, 0o755)
            chmod(daemon.socketPath, 0o666)
            // A copy the other user can execute wherever the build tree lives (it is static).
            let copy = daemon.directory + "/playbackctl"
            // Copied by cp: a copy written here could be open in a helper another test started.
            let copied = try CommandLineRun.run(
                executable: "/bin/cp", [TestEnvironment.binDirectory + "/playbackctl", copy])
            try #require(copied.status == 0, "\(copied.stderr)")
            chmod(copy, 0o755)
            let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            // The daemon refuses the other user (a raw client, which checks nothing itself)...
            let raw = try CommandLineRun.run(
                executable: asNobody[0],
                Array(asNobody.dropFirst()) + [
                    "/usr/bin/python3", "-c",
                    // It sends nothing: the daemon answers a refused peer at once and closes, and a
                    // request written after that close would fail with EPIPE (a race).
                    "import socket\ns=socket.socket(socket.AF_UNIX)\ns.connect('\(daemon.socketPath)')\n"
                        + "print(s.recv(4096).decode())",
                ])
            #expect(raw.stdout.contains(#""status":"badRequest""#), "\(raw.stdout)\(raw.stderr)")
            #expect(raw.stdout.contains("connection refused: peer uid 65534 is not the daemon's uid 0"))
            // ...and playbackctl refuses a daemon that is not its user's before it sends anything.
            let run = try CommandLineRun.run(
                executable: asNobody[0], Array(asNobody.dropFirst()) + [copy, "--socket", daemon.socketPath, "status"])
            #expect(run.status == 9, "\(run.stderr)")
            #expect(run.stderr.contains("it is served by uid 0, not by you (uid 65534)"), "\(run.stderr)")
        }

        @Test("a socket directory someone else could write to is refused: the daemon does not start there")
        func sharedSocketDirectoryIsRefused() throws {
            let base = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let shared = base + "/shared"
            mkdir(shared, 0o700)
            chmod(shared, 0o777)  // as if another user had made it in /tmp before us
            let run = try CommandLineRun.run(
                executable: "/usr/bin/timeout",
                ["10", TestEnvironment.binDirectory + "/playbackd", "--socket", shared + "/s", "--device", "null"],
                environment: ["XDG_STATE_HOME": base + "/state", "XDG_CONFIG_HOME": base + "/config"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(shared) is writable by others (mode 777)"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: shared + "/s"))
        }

        @Test("playbackctl talks only to a daemon of its own user: a socket served by another uid is refused")
        func foreignSocketIsRefused() throws {
            guard getuid() == 0 else { try Test.cancel("skipped: serving a socket as another user needs root") }
            let base = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            chmod(base, 0o777)
            let path = base + "/impostor.sock"
            // Another user (nobody) listens where playbackctl is told to look. The socket is
            // bound under another name and renamed once it listens: the path appears only then
            // (a connect between the bind and the listen is refused, which a run once hit).
            let impostor = try SpawnedProcess(
                [
                    "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                    "import os,socket,time\ns=socket.socket(socket.AF_UNIX)\ns.bind('\(path).new')\ns.listen(8)\n"
                        + "os.rename('\(path).new', '\(path)')\nwhile True: time.sleep(1)",
                ], environment: ["PATH=/usr/bin:/bin"])
            defer { impostor.kill() }
            try waitUntil { FileManager.default.fileExists(atPath: path) }
            let run = try CommandLineRun.run("playbackctl", ["--socket", path, "--timeout", "5", "status"])
            #expect(run.status == 9)
            #expect(
                run.stderr.hasPrefix("playbackctl: refusing \(path): it is served by uid 65534, not by you (uid 0)"),
                "\(run.stderr)")
        }

        @Test("the daemon's own socket directory is created 0700")
        func socketDirectoryIsPrivate() throws {
            let base = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let runtime = base + "/runtime"
            mkdir(runtime, 0o700)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestEnvironment.binDirectory + "/playbackd")
            process.arguments = ["--device", "null"]
            process.environment = TestEnvironment.marked([
                "XDG_RUNTIME_DIR": runtime, "NOTIFY_SOCKET": base + "/notify",
            ])
            let notify = try NotifyListener(path: base + "/notify")
            try process.run()
            defer { process.terminate(); process.waitUntilExit() }
            #expect(notify.waitFor("READY=1", timeout: 15))
            var info = stat()
            #expect(stat(runtime + "/playbackd", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700)
            #expect(stat(runtime + "/playbackd/control.sock", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
        }

        private func expectStateKept(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) throws
        {
            let snapshot = try daemon.nowPlaying()
            #expect(snapshot["elapsed"]?.numberValue == 7.5, sourceLocation: sourceLocation)
            #expect(snapshot["queueCount"]?.numberValue == 2, sourceLocation: sourceLocation)
            #expect(snapshot["title"]?.stringValue == "Long", sourceLocation: sourceLocation)
        }

        /// Sends raw bytes on a fresh connection and returns the first reply line.
        static func rawExchange(_ daemon: DaemonProcess, bytes: [UInt8]) throws -> String {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(daemon.socketPath.utf8)) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else { throw TestFailure("connect failed") }
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
        }
    }
}
