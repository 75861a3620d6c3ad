import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The user unit verifies cleanly, and the daemon tells systemd what it is doing.
    @Suite struct SystemdIntegration {
        @Test("systemd-analyze --user verify accepts the unit with no output at all")
        func unitVerifies() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let template = try String(
                contentsOfFile: TestEnvironment.packageRoot + "/systemd/playbackd.service", encoding: .utf8)
            let unit = template.replacingOccurrences(of: "@BINDIR@", with: TestEnvironment.binDirectory)
                .replacingOccurrences(of: "@DOCDIR@", with: TestEnvironment.packageRoot)
            #expect(unit.contains("Type=notify"))
            try unit.write(toFile: directory + "/playbackd.service", atomically: true, encoding: .utf8)
            mkdir(directory + "/runtime", 0o700)
            let run = try CommandLineRun.run(
                executable: "/usr/bin/systemd-analyze",
                ["--user", "verify", directory + "/playbackd.service"],
                environment: ["XDG_RUNTIME_DIR": directory + "/runtime"])
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout.isEmpty, "\(run.stdout)")
        }

        @Test("READY=1, then STATUS= on play, pause and stop, and STOPPING=1 on SIGTERM")
        func notifications() throws {
            let daemon = try DaemonProcess(device: "pulse", pulse: true)
            #expect(daemon.notify.messages.first?.hasPrefix("READY=1\nSTATUS=Stopped") == true)
            _ = try daemon.enqueue(["long.mp3"], play: true)
            #expect(daemon.notify.waitFor("STATUS=Playing: Fixture Artist - Long", timeout: 10))
            _ = try daemon.call("pause")
            #expect(daemon.notify.waitFor("STATUS=Paused: Fixture Artist - Long", timeout: 10))
            _ = try daemon.call("stop")
            #expect(daemon.notify.waitFor("STATUS=Stopped: Fixture Artist - Long", timeout: 10))
            #expect(daemon.terminate() == 0)
            #expect(daemon.notify.waitFor("STOPPING=1", timeout: 5))
        }
    }
}
