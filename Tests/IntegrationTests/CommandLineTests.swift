import ControlProtocol
import Foundation
import PlaybackModel
import SystemSupport
import Testing

extension IntegrationSuite {
    /// Acceptance 6: the built `playbackctl`, its exact output and exit codes.
    @Suite struct CommandLine {
        @Test("status prints state, artist - title, album, time and queue position")
        func humanStatus() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3", "two.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(1.5))])
            let run = try playbackctl(daemon, ["status"])
            #expect(run.status == 0)
            #expect(run.stdout == "[stopped] Fixture Artist - One\nFixture Album\n0:01 / 0:02  (1/2)  skip -15s/+15s\n")
            #expect(run.stderr.isEmpty)
        }

        @Test("--json prints the reply as one JSON line")
        func jsonStatus() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3"])
            let run = try playbackctl(daemon, ["--json", "status"])
            let reply = try JSONParser.parse(Array(run.stdout.utf8.dropLast()))
            #expect(run.stdout.filter { $0 == "\n" }.count == 1)
            #expect(reply["status"]?.stringValue == "success")
            #expect(reply["nowPlaying"]?["title"]?.stringValue == "One")
        }

        @Test("enqueue resolves relative paths against the working directory and reports rejections")
        func enqueueRelative() throws {
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            let run = try playbackctl(
                daemon, ["enqueue", "one.mp3", "nope.mp3", "--play"], currentDirectory: TestEnvironment.fixtures)
            #expect(run.status == 0)
            #expect(run.stdout == "added 1 item, queue has 1\n")
            #expect(run.stderr == "rejected \(TestEnvironment.fixtures)/nope.mp3: no such file\n")
            let queue = try playbackctl(daemon, ["queue"])
            #expect(queue.stdout == ">1. Fixture Artist - One (0:02)\n")
        }

        @Test("seek accepts seconds, M:SS and relative +N / -N")
        func seekForms() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["long.mp3"])
            #expect(try playbackctl(daemon, ["seek", "0:20"]).stdout == "position 0:20\n")
            #expect(try playbackctl(daemon, ["seek", "+5"]).stdout == "position 0:25\n")
            #expect(try playbackctl(daemon, ["seek", "-10.5"]).stdout == "position 0:14\n")
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == 14.5)
            #expect(try playbackctl(daemon, ["seek", "7"]).stdout == "position 0:07\n")
            #expect(try playbackctl(daemon, ["skip-forward"]).stdout == "position 0:22\n")
        }

        @Test("aliases reach the same commands")
        func aliases() throws {
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            _ = try daemon.enqueue(["one.mp3", "two.mp3"])
            #expect(try playbackctl(daemon, ["next"]).status == 0)
            #expect(try daemon.nowPlaying()["queueIndex"]?.numberValue == 1)
            #expect(try playbackctl(daemon, ["prev"]).status == 0)
            #expect(try daemon.nowPlaying()["queueIndex"]?.numberValue == 0)
            #expect(try playbackctl(daemon, ["toggle"]).status == 0)
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")
        }

        @Test("each status has its own exit code and a message on stderr")
        func exitCodes() throws {
            let daemon = try DaemonProcess()
            let empty = try playbackctl(daemon, ["play"])
            #expect(empty.status == CommandStatus.noActionableNowPlayingItem.exitCode)
            #expect(empty.stderr == "playbackctl: the queue is empty (noActionableNowPlayingItem)\n")
            #expect(try playbackctl(daemon, ["enqueue", "/nope.mp3"]).status == CommandStatus.noSuchContent.exitCode)
            #expect(try playbackctl(daemon, ["disable", "play"]).status == 0)
            #expect(try playbackctl(daemon, ["play"]).status == CommandStatus.commandDisabled.exitCode)
            #expect(try playbackctl(daemon, ["disable", "queue"]).status == CommandStatus.badRequest.exitCode)
            let missingDevice = try DaemonProcess(device: "no_such_device")
            _ = try missingDevice.enqueue(["one.mp3"])
            #expect(try playbackctl(missingDevice, ["play"]).status == 0, "play answers before the device opens")
            #expect(try missingDevice.waitForState("interrupted")["deviceError"]?.stringValue != nil)
            let mulaw = try DaemonProcess(device: "playbackd_mulaw_only")
            _ = try mulaw.enqueue(["one.mp3"])
            #expect(try playbackctl(mulaw, ["play"]).status == 0)
            #expect(try mulaw.waitForState("interrupted")["deviceError"]?.stringValue?.contains("cannot play") == true)
            let codes = Set(CommandStatus.allCases.map(\.exitCode))
            #expect(codes.count == CommandStatus.allCases.count, "distinct codes")
        }

        @Test("usage errors exit 2; no daemon exits 8")
        func usageAndNotRunning() throws {
            let unknown = try playbackctl(nil, ["dance"])
            #expect(unknown.status == 2)
            #expect(unknown.stderr == "playbackctl: unknown command 'dance'\nTry 'playbackctl --help'.\n")
            #expect(try playbackctl(nil, ["seek", "1:75"]).status == 2)
            #expect(try playbackctl(nil, ["skip-forward", "0"]).status == 2)
            #expect(try playbackctl(nil, ["enqueue"]).status == 2)
            #expect(try playbackctl(nil, ["enqueue", "x.mp3", "--shuffle"]).status == 2)
            let notRunning = try playbackctl(nil, ["status"])
            #expect(notRunning.status == 8)
            #expect(notRunning.stderr.hasPrefix("playbackctl: playbackd is not running (/nonexistent/playbackd.sock: "))
        }

        @Test("a socket that accepts but never answers: exit 10 with a message after --timeout, no hang")
        func silentSocket() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // A listening socket nobody serves: the kernel completes the connection from its
            // backlog, as with a socket unit whose service never starts.
            let path = directory + "/silent.sock"
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            #expect(UnixSocketAddress(path: path)!.bind(listener) == 0 && listen(listener, 8) == 0)
            let start = Date()
            let run = try CommandLineRun.run("playbackctl", ["--socket", path, "--timeout", "0.5", "status"])
            let seconds = Date().timeIntervalSince(start)
            #expect(run.status == 10)
            #expect(
                run.stderr
                    == "playbackctl: playbackd accepted the connection but did not answer within 0.5 s (\(path)); "
                    + "see `systemctl --user status playbackd`\n")
            #expect(seconds >= 0.5 && seconds < 5, "returned after \(seconds) s")
        }

        @Test("--help lists every verb of the catalog; each verb has its own help")
        func help() throws {
            let overview = try playbackctl(nil, ["--help"])
            #expect(overview.status == 0)
            for spec in CommandCatalog.all {
                #expect(!spec.verbs.isEmpty, "\(spec.name) has a CLI verb")
                for verb in spec.verbs { #expect(overview.stdout.contains("  \(verb.name)")) }
            }
            for (code, _) in ExitCodeTable.rows { #expect(overview.stdout.contains("  \(code) ")) }
            let seek = try playbackctl(nil, ["seek", "--help"])
            #expect(seek.stdout.hasPrefix("Usage: playbackctl seek POSITION\n"))
            #expect(seek.stdout.contains("changePlaybackPosition"))
        }

        @Test("watch --json prints the snapshot, then one line per change")
        func watch() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["long.mp3"])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestEnvironment.binDirectory + "/playbackctl")
            process.arguments = ["--socket", daemon.socketPath, "watch", "--json"]
            process.environment = TestEnvironment.marked(ProcessInfo.processInfo.environment)
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let reader = LineReader(output.fileHandleForReading)
            #expect(try reader.next()?.contains(#""state":"stopped""#) == true)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(3))])
            #expect(try reader.next()?.contains(#""elapsed":3,"#) == true)
            _ = try daemon.call("clear")
            #expect(
                try reader.next()
                    == #"{"state":"stopped","repeatMode":"off","shuffleMode":"off","singleMode":"off","consumeMode":"off","volume":100,"defaultRate":1,"crossfade":{"seconds":0,"mode":"albums","skipSeconds":1}}"#
            )
            #expect(daemon.terminate() == 0)
            #expect(try reader.next() == #"{"state":"offline"}"#, "watch reports the daemon gone and waits for it")
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// The exit codes `--help` must document (mirrors ControlCLI's table without linking it).
enum ExitCodeTable {
    static var rows: [(Int32, String)] {
        CommandStatus.allCases.map { ($0.exitCode, $0.rawValue) } + [(2, "usage"), (8, "not running"), (9, "protocol")]
    }
}

/// Reads lines from a pipe, with a timeout so a missing line fails the test instead of hanging.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// When the most recent chunk of output arrived (`WallClock` seconds).
    private(set) var arrival = 0.0

    /// The next line and when it arrived; nil when `timeout` passes first.
    func nextTimed(timeout: Double = 10) throws -> (line: String, time: Double)? {
        guard let line = try next(timeout: timeout) else { return nil }
        return (line, arrival)
    }

    func next(timeout: Double = 10) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, poll(&pfd, 1, Int32(remaining * 1000)) > 0 else { return nil }
            let chunk = handle.availableData
            arrival = WallClock.now()
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
