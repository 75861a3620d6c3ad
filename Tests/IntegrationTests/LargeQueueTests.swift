import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// A queue of 100,000 items (issue 49): it survives `kill -9` and SIGTERM whole and in
    /// order, with its current item, and a stop while it is still being read at start.
    @Suite struct LargeQueue {
        /// The paths of a `queue` page's items.
        private func paths(_ reply: JSONValue) -> [String] {
            (reply["items"]?.arrayValue ?? []).compactMap { $0["assetURL"]?.stringValue }.map {
                String($0.dropFirst("file://".count)).removingPercentEncoding ?? $0
            }
        }

        /// Checks what a daemon just started shows (the current item where it stands, while
        /// the rest may still be read), that a `queue` request gets the whole queue (it waits
        /// for it), and the queue's order at the start, the current item and the end.
        private func expectWhole(_ daemon: DaemonProcess, _ directory: String, current: Int) throws {
            let shown = try daemon.nowPlaying()
            #expect(shown["queueCount"]?.numberValue == 100_000 && shown["queueIndex"]?.numberValue == Double(current))
            #expect(
                shown["assetURL"]?.stringValue?.hasSuffix("track%20\(current + 1).mp3") == true, "\(shown.serialized)")
            #expect(try daemon.call("queue", [("limit", .number(1))])["count"]?.numberValue == 100_000)
            let first = try daemon.call("queue", [("offset", .number(0)), ("limit", .number(3))])
            #expect(paths(first) == (1...3).map { "\(directory)/track \($0).mp3" })
            #expect(first["currentIndex"]?.numberValue == Double(current))
            let middle = try daemon.call("queue", [("offset", .number(Double(current))), ("limit", .number(2))])
            #expect(paths(middle) == [current + 1, current + 2].map { "\(directory)/track \($0).mp3" })
            let last = try daemon.call("queue", [("offset", .number(99_999)), ("limit", .number(1))])
            #expect(paths(last) == ["\(directory)/track 100000.mp3"])
        }

        @Test(
            "a 100,000-item queue comes back whole and in order after kill -9, after SIGTERM, and after a SIGTERM while it was still being read"
        )
        func hundredThousandItems() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let directory = TestEnvironment.makeTemporaryDirectory() + "/many"
            defer {
                try? FileManager.default.removeItem(atPath: stateHome)
                try? FileManager.default.removeItem(atPath: directory)
            }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for index in 1...100_000 {
                try FileManager.default.createSymbolicLink(
                    atPath: "\(directory)/track \(index).mp3", withDestinationPath: TestEnvironment.fixture("three.mp3")
                )
            }
            let daemon = { try DaemonProcess(environment: ["XDG_STATE_HOME": stateHome]) }
            let first = try daemon()
            let added = try first.call("enqueue", [("items", .array([.string(directory)]))])
            #expect(added["added"]?.arrayValue?.count == 100_000)
            let current = 54_321
            #expect(try first.call("jump", [("index", .number(Double(current)))])["status"]?.stringValue == "success")
            #expect(try first.call("pause")["status"]?.stringValue == "success")
            // The save runs on its own thread: wait until the file holds the jump.
            let stateFile = stateHome + "/playbackd/state.json"
            try waitUntil(timeout: 60) {
                SavedState(path: stateFile)?["currentIndex"]?.numberValue == Double(current)
            }
            first.signal(SIGKILL)
            _ = first.waitForExit(timeout: 10)

            let second = try daemon()
            try expectWhole(second, directory, current: current)
            #expect(second.terminate() == 0)
            // Stopped at READY=1, while the rest of the queue is still read (about 0.1 s): what
            // it showed meanwhile (the current item) is not what the file is left holding.
            let early = try daemon()
            #expect(early.terminate() == 0)
            let third = try daemon()
            try expectWhole(third, directory, current: current)
        }
    }
}
