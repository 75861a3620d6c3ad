import ControlProtocol
import Foundation
import Synchronization
import Testing

extension IntegrationSuite {
    /// The device is opened and closed off the event loop: no reply waits for it.
    @Suite struct DeviceOpening {
        @Test(
            "a device whose open hangs (a FIFO nobody reads): play, pause and play answer at once, another client is answered throughout, and once the FIFO is read the item plays whole"
        )
        func openThatHangs() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let fifo = directory + "/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            let daemon = try DaemonProcess(device: "playbackd_fifo", environment: ["PLAYBACKD_FIFO": fifo])
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
    }
}
