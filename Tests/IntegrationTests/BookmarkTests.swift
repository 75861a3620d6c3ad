import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// A long item remembers where it was left, across queues, restarts and a `kill -9`.
    @Suite struct Bookmarks {
        /// Daemons sharing one state directory, each on the paced `pulse` device, without
        /// resume (so what starts an item where it was left is its bookmark alone).
        final class Household {
            let state = TestEnvironment.makeTemporaryDirectory()
            func daemon() throws -> DaemonProcess {
                try DaemonProcess(
                    device: "pulse", arguments: ["--resume", "off"], pulse: true,
                    environment: ["XDG_STATE_HOME": state])
            }
            deinit { try? FileManager.default.removeItem(atPath: state) }
        }

        static func elapsed(_ daemon: DaemonProcess) throws -> Double {
            try #require(try daemon.nowPlaying()["elapsed"]?.numberValue)
        }

        @Test(
            "a 12-minute item starts where it was left: after the queue was replaced, after a restart and after kill -9; a short item and a finished one start at 0"
        )
        func followTheFile() throws {
            let household = Household()
            var daemon = try household.daemon()
            _ = try daemon.enqueue(["book12.mp3"], play: true)
            _ = try daemon.waitForState("playing")
            _ = try daemon.call("changePlaybackPosition", [("position", .number(29.5))])
            try waitUntil(timeout: 10) { (try? Self.elapsed(daemon)) ?? 0 >= 30 }
            _ = try daemon.call("pause")
            let left = try Self.elapsed(daemon)
            // Another queue, then the book again: it starts where it was left.
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            #expect(try Self.elapsed(daemon) == 0)
            _ = try daemon.enqueue(["book12.mp3"], replace: true)
            #expect(abs(try Self.elapsed(daemon) - left) < 0.1, "left at \(left)")
            let listed = try #require(try daemon.call("bookmarks")["bookmarks"]?.arrayValue)
            #expect(listed.count == 1 && listed.first?["title"]?.stringValue == "Twelve Minutes", "\(listed)")
            #expect(abs((listed.first?["position"]?.numberValue ?? 0) - left) < 0.1)
            #expect(abs((listed.first?["duration"]?.numberValue ?? 0) - 720) < 1)

            // Played on, then the daemon stops: the bookmark is where it stopped.
            _ = try daemon.call("play")
            _ = try daemon.waitForState("playing")
            try waitUntil(timeout: 10) { (try? Self.elapsed(daemon)) ?? 0 >= left + 0.5 }
            #expect(daemon.terminate() == 0)
            daemon = try household.daemon()
            _ = try daemon.enqueue(["book12.mp3"])
            let restarted = try Self.elapsed(daemon)
            #expect(restarted > left + 0.3 && restarted < left + 3, "left at \(left), restarted at \(restarted)")

            // Played on for 6 s, then killed: at most 5 s are lost.
            _ = try daemon.call("play")
            _ = try daemon.waitForState("playing")
            try waitUntil(timeout: 60) { (try? Self.elapsed(daemon)) ?? 0 >= restarted + 6 }
            let killedAt = try Self.elapsed(daemon)
            daemon.signal(SIGKILL)
            _ = daemon.waitForExit(timeout: 10)
            daemon = try household.daemon()
            _ = try daemon.enqueue(["book12.mp3"])
            let afterKill = try Self.elapsed(daemon)
            print("bookmarks: killed at \(killedAt) s, back at \(afterKill) s")
            #expect(afterKill <= killedAt && killedAt - afterKill <= 5.1, "killed at \(killedAt), back at \(afterKill)")

            // A short item keeps no bookmark.
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(1.5))])
            _ = try daemon.enqueue(["two.mp3"], replace: true)
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            #expect(try Self.elapsed(daemon) == 0)

            // Left in its last 30 s, the book counts as finished: it starts over.
            _ = try daemon.enqueue(["book12.mp3"], replace: true)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(700))])
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            _ = try daemon.enqueue(["book12.mp3"], replace: true)
            #expect(try Self.elapsed(daemon) == 0)
            #expect(try daemon.call("bookmarks")["bookmarks"] == .array([]))
        }

        @Test("bookmarks forget: one file, or all; a file without one is an error")
        func forget() throws {
            let household = Household()
            let daemon = try household.daemon()
            _ = try daemon.enqueue(["book12.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(100))])
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            let path = TestEnvironment.fixture("book12.mp3")
            #expect(try daemon.call("bookmarks")["bookmarks"]?.arrayValue?.count == 1)
            let forgot = try daemon.call("forgetBookmarks", [("path", .string(path))])
            #expect(forgot["status"]?.stringValue == "success")
            let again = try daemon.call("forgetBookmarks", [("path", .string(path))])
            #expect(again["status"]?.stringValue == "noSuchContent", "\(again.serialized)")
            #expect(
                try daemon.call("forgetBookmarks", [("path", .string("book12.mp3"))])["status"]?.stringValue
                    == "badRequest")
            #expect(try daemon.call("forgetBookmarks")["status"]?.stringValue == "badRequest")
            _ = try daemon.enqueue(["book12.mp3"], replace: true)
            #expect(try Self.elapsed(daemon) == 0)
            _ = try daemon.call("changePlaybackPosition", [("position", .number(100))])
            _ = try daemon.enqueue(["one.mp3"], replace: true)
            #expect(try daemon.call("forgetBookmarks", [("all", .bool(true))])["status"]?.stringValue == "success")
            #expect(try daemon.call("bookmarks")["bookmarks"] == .array([]))
        }
    }
}

extension IntegrationSuite {
    @Suite struct BookmarkStarts {
        @Test(
            "an upcoming item with a bookmark starts there, gaplessly: the capture is one item whole, then the next from its bookmark's sample"
        )
        func gaplessIntoBookmark() throws {
            // Items of 30 s and more keep bookmarks here, so the 40 s fixture does.
            let daemon = try DaemonProcess(device: "playbackd_capture", arguments: ["--bookmark-min-length", "0.5"])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(5))])
            _ = try daemon.enqueue(["one.mp3", "long.mp3"], replace: true)
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == 0)
            _ = try daemon.call("play")
            try events.waitForEvent(timeout: 30) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let long = try TestEnvironment.reference("long")
            let expected = try TestEnvironment.reference("one") + long.subdata(in: 5 * 44_100 * 4..<long.count)
            let difference = pcmDifference(try daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
        }
    }
}
