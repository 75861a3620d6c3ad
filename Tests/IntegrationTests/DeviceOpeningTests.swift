import ControlProtocol
import Foundation
import Synchronization
import Testing

extension IntegrationSuite {
    /// The device is opened and closed off the event loop: no reply waits for it.
    @Suite struct DeviceOpening {
        /// A FIFO in `directory`: the device of `daemon(playingInto:)`.
        static func fifo(in directory: String) throws -> String {
            let fifo = directory + "/fifo"
            guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("mkfifo \(fifo): errno \(errno)") }
            return fifo
        }

        /// A daemon whose device is ALSA's file plugin writing into `fifo`.
        static func daemon(playingInto fifo: String) throws -> DaemonProcess {
            try DaemonProcess(device: "playbackd_fifo", environment: ["PLAYBACKD_FIFO": fifo])
        }

        @Test(
            "a device whose open hangs (a FIFO nobody reads): play, pause and play answer at once, another client is answered throughout, and once the FIFO is read the item plays whole"
        )
        func openThatHangs() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let fifo = try Self.fifo(in: directory)
            let daemon = try Self.daemon(playingInto: fifo)
            _ = try daemon.enqueue(["long.mp3"])
            let other = try daemon.connect()
            var slowest = (seconds: 0.0, what: "")
            func timed(_ what: String, _ request: () throws -> JSONValue) throws {
                let start = Date()
                let reply = try request()
                #expect(reply["status"]?.stringValue == "success", "\(what): \(reply.serialized)")
                let seconds = Date().timeIntervalSince(start)
                if seconds > slowest.seconds { slowest = (seconds, what) }
            }
            try timed("play") { try daemon.call("play") }
            for _ in 0..<20 {
                try timed("nowPlaying on another connection") {
                    try other.request(.object([("command", .string("nowPlaying"))]))
                }
                usleep(10_000)  // the requests spread over the window measured: the open hangs throughout
            }
            try timed("pause") { try daemon.call("pause") }
            try timed("play") { try daemon.call("play") }
            try timed("nowPlaying on another connection") {
                try other.request(.object([("command", .string("nowPlaying"))]))
            }
            // The open never returns while nothing reads: each answer came without it. A busy
            // machine answers within milliseconds; 1 s is the margin.
            print("device opening: slowest answer \(slowest.seconds * 1000) ms (\(slowest.what)) while the open hangs")
            #expect(slowest.seconds < 1, "\(slowest.what) took \(slowest.seconds) s")
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")

            // Read now (opened for writing too, so the reader never sees the end of the file
            // between the daemon's opens): the first open returns, its halted pipeline closes
            // the device again having written nothing, and the second plays the item whole.
            let reference = try TestEnvironment.reference("long")
            let reader = open(fifo, O_RDWR)
            #expect(reader >= 0)
            defer { close(reader) }
            var captured = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(60)
            while captured.count < reference.count && Date() < deadline {
                var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 1000) > 0 else { continue }
                let count = read(reader, &buffer, buffer.count)
                if count > 0 { captured.append(contentsOf: buffer[0..<count]) }
            }
            #expect(captured.count == reference.count, "\(captured.count) of \(reference.count) bytes")
            #expect(captured == reference, "the item, byte for byte")
            try waitUntil(timeout: 20) { try daemon.nowPlaying()["state"]?.stringValue == "stopped" }
            #expect(daemon.terminate() == 0)
        }
        @Test(
            "SIGTERM while a write to the device blocks (a FIFO whose reader stopped reading): the daemon exits with 0, the position saved"
        )
        func exitWhileAWriteBlocks() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let fifo = try Self.fifo(in: directory)
            // Opened for writing too, so that the open returns at once and the daemon's open
            // does not wait for a reader.
            let reader = open(fifo, O_RDWR | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let daemon = try Self.daemon(playingInto: fifo)
            _ = try daemon.enqueue(["long.mp3"], play: true)
            // Read a second of audio, then nothing more: the pipe fills and the output thread's
            // write blocks in the kernel.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var total = 0
            try waitUntil(timeout: 20, state: { "\(total) bytes read" }) {
                let count = read(reader, &buffer, buffer.count)
                if count > 0 { total += count }
                return total >= 176_400
            }
            try waitUntil(timeout: 20, state: { threadReport(daemon.pid) }) {
                threadReport(daemon.pid).contains("pipe_write")
            }
            let playing = try daemon.nowPlaying()
            #expect(playing["state"]?.stringValue == "playing")
            let signalled = Date()
            daemon.signal(SIGTERM)
            // The fade-out waits 2 s at most for the device, the close 2 s: 4 s here. Before, the
            // exit waited for the device for ever (systemd kills it after TimeoutStopSec, without
            // the last save). 60 s tells the two apart.
            let status = daemon.waitForExit(timeout: 60)
            let seconds = Date().timeIntervalSince(signalled)
            print("device: exited \(seconds) s after SIGTERM while a write blocked")
            #expect(status == 0, "exit \(status.map(String.init) ?? "none") after \(seconds) s:\n\(daemon.worldLogs)")
            let saved = try #require(SavedState(path: daemon.directory + "/state/playbackd/state.json"))
            #expect(saved["state"]?.stringValue == "playing", "\(saved.header.serialized.prefix(300))")
            #expect((saved["position"]?.numberValue ?? 0) > 0.5, "\(saved.header.serialized.prefix(300))")
        }
    }
}
