import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 14, point 4: faults of the machine around the daemon. Disks that fill or turn
    /// read-only are real filesystems in a private mount namespace of the daemon (a 16 KiB
    /// tmpfs; a read-only bind mount), since root, which runs these tests, ignores permissions.
    @Suite struct Faults {
        /// A launcher that gives the daemon its own mount namespace, runs `setup` (shell) in
        /// it, then execs the daemon's command line.
        private static func inMountNamespace(_ setup: String) -> [String] {
            [
                "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", setup + #" && exec "$@""#,
                "sh",
            ]
        }

        /// The resume state file as the daemon sees it, through its own mount namespace.
        private static func stateFile(_ daemon: DaemonProcess, _ stateHome: String) -> String {
            "/proc/\(daemon.pid)/root\(stateHome)/playbackd/state.json"
        }

        /// The number of queue items in a state file; nil when it is missing or not whole.
        private static func items(inStateFile path: String) -> Int? { SavedState(path: path)?.itemLines }

        private static func occurrences(of text: String, in log: String) -> Int {
            log.components(separatedBy: text).count - 1
        }

        @Test(
            "a full state directory (ENOSPC): the daemon answers on, says so once, and keeps the last whole state file")
        func stateDirectoryFull() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: stateHome) }
            let directory = stateHome + "/playbackd"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let daemon = try DaemonProcess(
                device: "null", environment: ["XDG_STATE_HOME": stateHome],
                launcher: Self.inMountNamespace("mount -t tmpfs -o size=16k,mode=0700 tmpfs '\(directory)'"))
            let file = Self.stateFile(daemon, stateHome)
            _ = try daemon.enqueue(["one.mp3"])
            try waitUntil { Self.items(inStateFile: file) == 1 }

            // 300 items need a file of about 100 KiB: more than the filesystem holds.
            _ = try daemon.enqueue(Array(repeating: "one.mp3", count: 300))
            let failure = "cannot save the resume state"
            try waitUntil { daemon.stderrText.contains(failure) }
            #expect(daemon.stderrText.contains("No space left on device"), "\(daemon.stderrText.suffix(2000))")
            #expect(Self.items(inStateFile: file) == 1, "the last whole file is still there")
            let left = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/root\(directory)")
            #expect(left == ["state.json"], "no half-written temporary file is left")
            #expect(try daemon.call("queue")["count"]?.numberValue == 301, "the queue is whole in the daemon")

            // Each later change fails the same way: said once, not at every save.
            for mode in ["all", "one", "off"] { _ = try daemon.call("changeRepeatMode", [("mode", .string(mode))]) }
            try waitUntil { daemon.stderrText.contains("the resume state is still not saved") }
            #expect(Self.occurrences(of: failure, in: daemon.stderrText) == 1, "\(daemon.stderrText.suffix(2000))")

            // Room again (a short queue fits): the next save lands.
            _ = try daemon.call("clear")
            try waitUntil { Self.items(inStateFile: file) == 0 }
            #expect(daemon.isRunning)
        }

        @Test(
            "a read-only state directory: the state is read, changes are refused by the disk, the old file stays whole")
        func stateDirectoryReadOnly() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: stateHome) }
            let directory = stateHome + "/playbackd"
            let path = directory + "/state.json"
            let first = try DaemonProcess(device: "null", environment: ["XDG_STATE_HOME": stateHome])
            _ = try first.enqueue(["one.mp3", "two.mp3"])
            #expect(first.terminate() == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(Self.items(inStateFile: path) == 2)

            let readOnly = try DaemonProcess(
                device: "null", environment: ["XDG_STATE_HOME": stateHome],
                launcher: Self.inMountNamespace(
                    "mount --bind '\(directory)' '\(directory)' && mount -o remount,bind,ro '\(directory)'"))
            #expect(try readOnly.call("queue")["count"]?.numberValue == 2, "the state was read")
            _ = try readOnly.enqueue(["three.mp3"])
            try waitUntil { readOnly.stderrText.contains("cannot save the resume state") }
            #expect(readOnly.stderrText.contains("Read-only file system"), "\(readOnly.stderrText.suffix(2000))")
            #expect(try readOnly.call("queue")["count"]?.numberValue == 3, "the daemon answers, its queue whole")
            readOnly.signal(SIGKILL)
            _ = readOnly.waitForExit(timeout: 10)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is as it was")

            let third = try DaemonProcess(device: "null", environment: ["XDG_STATE_HOME": stateHome])
            #expect(try third.call("queue")["count"]?.numberValue == 2)
        }

        @Test(
            "the runtime directory removed while playing: playback carries on, SIGHUP brings the socket back, the stop saves the position"
        )
        func runtimeDirectoryRemoved() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let runtime = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: stateHome) }
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", pulse: true, socketPath: runtime + "/control.sock",
                environment: ["XDG_STATE_HOME": stateHome])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            _ = try daemon.waitForState("playing")
            try FileManager.default.removeItem(atPath: runtime)
            let size = { (try? daemon.captured().count) ?? 0 }
            let removedAt = size()
            // A second of audio more reaches the device (a bound no playing daemon nears).
            try waitUntil(timeout: 20) { size() > removedAt + 44_100 * 4 }
            #expect(daemon.isRunning)
            #expect(!FileManager.default.fileExists(atPath: runtime + "/control.sock"))
            daemon.signal(SIGHUP)
            try waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: runtime + "/control.sock") }
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing", "served again on the same path")
            let mode = try FileManager.default.attributesOfItem(atPath: runtime)[.posixPermissions] as? Int
            #expect(mode == 0o700, "the directory is made private again")
            #expect(daemon.terminate() == 0)
            #expect(!FileManager.default.fileExists(atPath: runtime + "/control.sock"), "removed at the stop")
            let state = try #require(SavedState(path: stateHome + "/playbackd/state.json"))
            #expect((state["position"]?.numberValue ?? 0) >= 0.5, "\(state.header.serialized)")
            #expect(!daemon.stderrText.contains("error"), "\(daemon.stderrText.suffix(2000))")
        }

        @Test("a file whose reads fail with EIO: refused when enqueued, cut short and passed over while it plays")
        func readErrors() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // A read() failure injector preloaded into the daemon (Tests/Fixtures/src/read-eio.c).
            let library = try TestEnvironment.preloadLibrary("read-eio", in: directory)
            let trigger = directory + "/fail-now"
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", pulse: true,
                environment: [
                    "LD_PRELOAD": library, "READ_EIO_FILE": TestEnvironment.fixture("long.mp3"),
                    "READ_EIO_TRIGGER": trigger,
                ])

            _ = FileManager.default.createFile(atPath: trigger, contents: nil)
            let refused = try daemon.enqueue(["long.mp3", "one.mp3"])
            #expect(refused["added"]?.arrayValue?.count == 1, "\(refused.serialized)")
            let reason = refused["rejected"]?.arrayValue?.first?["reason"]?.stringValue ?? ""
            #expect(reason.contains("Input/output error"), "\(refused.serialized)")

            try FileManager.default.removeItem(atPath: trigger)
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true, replace: true)
            _ = try daemon.waitForState("playing")
            // The paced sink plays (a loaded machine can hold a new stream back for seconds):
            // the decoder reads only as it makes room.
            try waitUntil(timeout: 60) { extrapolated(try daemon.nowPlaying()) >= 1 }
            #expect(FileManager.default.createFile(atPath: trigger, contents: nil))
            // The decoder reads 32 KiB (1.4 s of this file) at a time, a few seconds ahead of
            // what is heard: it meets the error long before the item's 40 s, and the next item
            // follows. The bound is loose (a sink held back only delays it); "ended early" tells
            // a cut from the item's own end, which would move to the next item too.
            try waitUntil(timeout: 120) { try daemon.nowPlaying()["queueIndex"]?.numberValue == 1 }
            #expect(daemon.stderrText.contains("ended early"), "\(daemon.stderrText.suffix(2000))")
            #expect(try daemon.call("queue")["count"]?.numberValue == 2, "the queue is whole")
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")
        }
    }
}
