import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 5, acceptance 3 and 4 through the live daemon: seamless loops, the shuffled order,
    /// and queue edits while playing.
    @Suite struct PlayModes {
        /// Plays loop2.mp3 (2.000 s) under `mode` on the paced capture device until `passes`
        /// passes were written, and checks the capture is the reference decode that many times,
        /// exactly, and that every loop point was published as a position change.
        private func checkSeamlessLoop(mode: String, passes: Int) throws {
            let daemon = try DaemonProcess(device: "playbackd_capture_paced", pulse: true)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["loop2.mp3"])
            #expect(try daemon.call("changeRepeatMode", [("mode", .string(mode))])["status"]?.stringValue == "success")
            let reference = try TestEnvironment.reference("loop2")
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            // A loop point is a position pushed that went back: more than a second behind where
            // the snapshot before it would have been by then. (How far into the new pass the
            // snapshot is taken depends on when the event loop ran, which a busy machine delays.)
            var restarts = 0
            var previous: JSONValue?
            let deadline = Date().addingTimeInterval(Double(passes) * 2 + 20)
            while restarts < passes - 1 && Date() < deadline {
                let event = try events.waitForEvent(timeout: deadline.timeIntervalSinceNow) {
                    $0["changes"]?.arrayValue?.contains(.string("position")) == true
                }
                let snapshot = event["nowPlaying"]!
                guard snapshot["state"]?.stringValue == "playing", snapshot["rate"]?.numberValue == 1 else { continue }
                if let previous, let timestamp = snapshot["timestamp"]?.numberValue,
                    extrapolated(snapshot, at: timestamp) < extrapolated(previous, at: timestamp) - 1
                {
                    restarts += 1
                    #expect(snapshot["title"]?.stringValue == "Loop")
                }
                previous = snapshot
            }
            #expect(restarts == passes - 1, "each loop point is pushed with the position back")
            // The device is written about a second ahead of what is heard: wait for the last pass.
            let expected = Data((0..<passes).map { _ in reference }.joined())
            try waitUntil(timeout: 20) { (try? daemon.captured().count) ?? 0 >= expected.count }
            _ = try daemon.call("stop")
            let captured = try daemon.captured()
            #expect(
                captured.count >= expected.count,
                "captured \(captured.count) bytes, \(passes) passes are \(expected.count)")
            let difference = pcmDifference(captured.prefix(expected.count), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }

        @Test("repeat-one of a 2 s item loops 5 times with not one sample lost or inserted")
        func repeatOneIsSeamless() throws {
            try checkSeamlessLoop(mode: "one", passes: 5)
        }

        @Test("repeat-all of a single item loops seamlessly too")
        func repeatAllOfOneItemIsSeamless() throws {
            try checkSeamlessLoop(mode: "all", passes: 3)
        }

        @Test("a shuffled queue plays each item once, gapless, in one of the orders that keep the current item first")
        func shuffledQueueIsBitExact() throws {
            let daemon = try DaemonProcess(device: "playbackd_capture")
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3", "loop2.mp3"])
            #expect(
                try daemon.call("changeShuffleMode", [("mode", .string("items"))])["status"]?.stringValue == "success")
            #expect(try daemon.nowPlaying()["shuffleMode"]?.stringValue == "items")
            _ = try daemon.call("play")
            try events.waitForState("stopped")
            let captured = try daemon.captured()
            let names = ["two", "three", "loop2"]
            let orders = permutations(names).map { ["one"] + $0 }
            let matching = try orders.filter { order in
                pcmDifference(captured, try order.map(TestEnvironment.reference).reduce(Data(), +)) == nil
            }
            #expect(matching.count == 1, "the capture is exactly one shuffled order of the four items")
            let queue = try daemon.call("queue")
            #expect(
                queue["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["One", "Two", "Three", "Loop"],
                "shuffle never reorders the queue itself")
        }

        @Test("next and previous follow the shuffled order; shuffle off restores the queue order; repeat-all wraps")
        func navigationFollowsShuffle() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3", "loop2.mp3", "long.mp3"])
            _ = try daemon.call("jump", [("index", .number(2))])
            _ = try daemon.call("changeShuffleMode", [("mode", .string("items"))])
            #expect(
                try daemon.nowPlaying()["queueIndex"]?.numberValue == 2, "turning shuffle on keeps the current item")
            var visited = [2]
            for _ in 0..<4 {
                _ = try daemon.call("nextTrack")
                visited.append(Int(try daemon.nowPlaying()["queueIndex"]?.numberValue ?? -1))
            }
            #expect(Set(visited) == Set(0..<5), "one cycle visits every item once: \(visited)")
            _ = try daemon.call("previousTrack")
            #expect(Int(try daemon.nowPlaying()["queueIndex"]?.numberValue ?? -1) == visited[3])
            _ = try daemon.call("changeShuffleMode", [("mode", .string("off"))])
            _ = try daemon.call("nextTrack")
            let afterOff = try daemon.nowPlaying()["queueIndex"]?.numberValue.map(Int.init)
            #expect(afterOff == (visited[3] < 4 ? visited[3] + 1 : nil), "next follows the queue order again")
            _ = try daemon.call("jump", [("index", .number(4))])
            _ = try daemon.call("changeRepeatMode", [("mode", .string("all"))])
            _ = try daemon.call("nextTrack")
            #expect(try daemon.nowPlaying()["queueIndex"]?.numberValue == 0, "repeat-all wraps to the first item")
            let modes = try daemon.nowPlaying()
            #expect(modes["repeatMode"]?.stringValue == "all" && modes["shuffleMode"]?.stringValue == "off")
        }

        @Test("insert, play next, remove, move and jump edit the queue; bad indexes are refused with the count")
        func queueEdits() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"])
            func titles() throws -> [String] {
                try daemon.call("queue")["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            }
            let items = { (name: String) in JSONValue.array([.string(TestEnvironment.fixture(name))]) }
            _ = try daemon.call("jump", [("index", .number(1))])
            _ = try daemon.call("enqueue", [("items", items("loop2.mp3")), ("next", .bool(true))])
            _ = try daemon.call("enqueue", [("items", items("long.mp3")), ("at", .number(0))])
            #expect(try titles() == ["Long", "One", "Two", "Loop", "Three"])
            #expect(try daemon.nowPlaying()["title"]?.stringValue == "Two", "inserting keeps the current item")
            _ = try daemon.call("move", [("from", .number(0)), ("to", .number(4))])
            #expect(try titles() == ["One", "Two", "Loop", "Three", "Long"])
            let removed = try daemon.call("remove", [("index", .number(1)), ("count", .number(2))])
            #expect(removed["removed"]?.numberValue == 2)
            #expect(try titles() == ["One", "Three", "Long"])
            #expect(try daemon.nowPlaying()["title"]?.stringValue == "Three", "the item after the removed current one")
            for (command, arguments) in [
                ("jump", [("index", JSONValue.number(3))]), ("remove", [("index", .number(9))]),
                ("move", [("from", .number(0)), ("to", .number(3))]),
                ("enqueue", [("items", items("one.mp3")), ("at", .number(4))]),
            ] {
                let reply = try daemon.call(command, arguments)
                #expect(reply["status"]?.stringValue == "noSuchContent", "\(command): \(reply.serialized)")
                #expect(reply["message"]?.stringValue?.contains("3") == true, "\(command) names the queue length")
            }
            #expect(try titles() == ["One", "Three", "Long"], "refused edits change nothing")
            let page = try daemon.call("queue", [("offset", .number(1)), ("limit", .number(1))])
            #expect(page["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Three"])
            #expect(page["count"]?.numberValue == 3)
        }
    }
}

/// Every ordering of `items`.
func permutations<T>(_ items: [T]) -> [[T]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index in
        var rest = items
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
    }
}
