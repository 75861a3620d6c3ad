import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 10: the installed units on a real systemd 252 user manager, booted in a container
    /// over this machine's /usr without the Swift toolchain (Tests/systemd/run-on-real-systemd).
    @Suite struct RealSystemd {
        /// Every check the container runs, in order; each must report "ok".
        static let checks = [
            "user-manager", "standalone-binaries", "socket-activation", "status-line", "sound-server-stream", "reload",
            "stop",
            "resume-after-stop", "crash-restart", "watchdog-restart", "mpris", "eq-preset", "http-stream",
            "phrase-cache",
            "config-error",
            "journal",
        ]

        @Test(
            "on a real user manager: socket activation, status line, reload, stop with resume, crash and watchdog restarts, MPRIS on the user bus, exit 78",
            .disabled(
                if: TestEnvironment.sanitizer != nil,
                "it installs the binaries into a container without a toolchain: a sanitized build needs the Swift runtime beside it"
            )
        )
        func userManager() throws {
            guard getuid() == 0 else { try Test.cancel("skipped: booting a systemd container needs root") }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-nspawn") else {
                try Test.cancel("skipped: systemd-nspawn is not installed (Debian package systemd-container)")
            }
            let results = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: results) }
            let run = try CommandLineRun.run(
                executable: TestEnvironment.packageRoot + "/Tests/systemd/run-on-real-systemd",
                [TestEnvironment.binDirectory, TestEnvironment.fixtures, results])
            if run.status == 77 {
                try Test.cancel("skipped: systemd-nspawn cannot boot a container here: \(run.stderr)")
            }
            #expect(run.status == 0, "\(run.stderr)")

            let lines =
                (try? String(contentsOfFile: results + "/results", encoding: .utf8))?
                .split(separator: "\n").map(String.init) ?? []
            let userLog = (try? String(contentsOfFile: results + "/user.log", encoding: .utf8)) ?? ""
            // The daemon's own journal, for a check that failed.
            let journal = (try? String(contentsOfFile: results + "/journal.log", encoding: .utf8)) ?? ""
            for check in Self.checks {
                let line = lines.first { $0 == "ok \(check)" || $0.hasPrefix("not ok \(check):") }
                #expect(
                    line == "ok \(check)",
                    "\(line ?? "\(check): never reported")\n\(userLog.suffix(3000))\njournal:\n\(journal.suffix(3000))")
            }
            #expect(lines.count == Self.checks.count, "unexpected results: \(lines)")
        }
    }
}
