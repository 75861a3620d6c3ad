import ControlClient
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// What a step heard, as a subscriber of its own sees it on a device paced in real time:
    /// each item that became audible, and each hearing that ended, with the item's own seconds
    /// heard (a seek skips, a pause stops the count, at rate 2 a minute of the item is a minute
    /// heard, each repeat-one pass is a hearing, a crossfade's overlap counts for the item fading
    /// out), within 0.1 s of what the snapshots say was played.
    @Suite struct HearingEvents {
        static let tolerance = 0.1

        /// A daemon on the paced device with `names` queued, a subscriber, and what it heard.
        final class World {
            let daemon: DaemonProcess
            let events: ControlClient
            /// The `audible` and `heard` entries pushed so far, in order.
            var audible: [JSONValue] = []
            var heard: [JSONValue] = []
            /// Each item's length, by its id.
            var durations: [Double] = []

            /// The scenario, for what a failure says.
            let scenario: String

            init(_ scenario: String, _ names: [String], arguments: [String] = []) throws {
                self.scenario = scenario
                daemon = try DaemonProcess(device: "playbackd_capture_paced", arguments: arguments, pulse: true)
                events = try daemon.connect()
                _ = try events.subscribe()
                _ = try daemon.enqueue(names)
                durations = (try daemon.call("queue")["items"]?.arrayValue ?? []).map {
                    $0["duration"]?.numberValue ?? 0
                }
            }

            /// Reads pushed lines, keeping what they heard, until one satisfies `predicate`.
            @discardableResult
            func read(timeout: Double = 30, until predicate: (JSONValue) -> Bool) throws -> JSONValue {
                let deadline = Date().addingTimeInterval(timeout)
                while true {
                    let remaining = deadline.timeIntervalSinceNow
                    guard remaining > 0, let line = try events.readLine(timeout: remaining) else {
                        throw TestFailure(
                            "no such line within \(timeout) s; \(heard.count) hearings ended:\n\(daemon.stderrText)")
                    }
                    audible += line["audible"]?.arrayValue ?? []
                    heard += line["heard"]?.arrayValue ?? []
                    if predicate(line) { return line }
                }
            }

            /// Reads pushed lines until `count` hearings have ended.
            func waitForHeard(_ count: Int) throws {
                if heard.count < count { try read { _ in self.heard.count >= count } }
            }

            /// Reads pushed lines until one says `change`.
            @discardableResult
            func waitFor(_ change: String) throws -> JSONValue {
                try read { $0["changes"]?.arrayValue?.contains(.string(change)) == true }
            }

            /// Plays and waits until the device plays.
            func play() throws {
                _ = try daemon.call("play")
                try read {
                    $0["changes"]?.arrayValue?.contains(.string("state")) == true
                        && $0["nowPlaying"]?["state"]?.stringValue == "playing"
                }
            }

            /// Listens `seconds` of wall time, then pauses: where the daemon paused, as its paused
            /// snapshot says. What follows is sent while paused, so that a test thread or a
            /// daemon that is slow to take a command cannot move what the command is measured
            /// against.
            func pause(after seconds: Double) throws -> Double {
                usleep(UInt32(seconds * 1_000_000))
                _ = try daemon.call("pause")
                let paused = try read {
                    $0["changes"]?.arrayValue?.contains(.string("state")) == true
                        && $0["nowPlaying"]?["state"]?.stringValue == "paused"
                }
                return paused["nowPlaying"]?["elapsed"]?.numberValue ?? .nan
            }

            /// Stops, and expects the one hearing to end there, `seconds` heard.
            func stop(expecting seconds: Double, _ comment: String) throws {
                _ = try daemon.call("stop")
                try waitForHeard(1)
                expectHeard(0, seconds: seconds, ending: "stopped", comment)
            }

            func expectHeard(_ index: Int, seconds: Double, ending: String, _ comment: String) {
                let entry = heard.count > index ? heard[index] : .null
                let said = entry["seconds"]?.numberValue ?? .nan
                #expect(
                    abs(said - seconds) <= HearingEvents.tolerance,
                    "\(scenario), \(comment): \(said) s heard, not \(seconds); heard \(heard.map(\.serialized))")
                #expect(entry["ending"]?.stringValue == ending, "\(scenario), \(comment): \(entry.serialized)")
            }
        }

        @Test("each hearing's seconds and ending, within 0.1 s: finish, a skip after 10 s, stop, seeks")
        func leaving() throws {
            for scenario in ["finish", "skip after 10 s", "stop", "seeks"] { try play(scenario) }
        }

        @Test("each hearing's seconds and ending, within 0.1 s: pause, rate 2, repeat one, crossfade")
        func listening() throws {
            for scenario in ["pause", "rate 2", "repeat one", "crossfade"] { try play(scenario) }
        }

        private func play(_ scenario: String) throws {
            switch scenario {
            case "finish":
                let world = try World(scenario, ["one.mp3", "two.mp3"])
                try world.play()
                try world.waitForHeard(2)
                world.expectHeard(0, seconds: world.durations[0], ending: "finished", "the first item")
                world.expectHeard(1, seconds: world.durations[1], ending: "finished", "the last item")
                let began = world.audible.compactMap { $0["began"]?.numberValue }
                #expect(began.count == 2 && abs(began[1] - began[0] - world.durations[0]) <= Self.tolerance, "\(began)")
            case "skip after 10 s":
                let world = try World(scenario, ["long.mp3", "two.mp3"])
                try world.play()
                let position = try world.pause(after: 10)
                _ = try world.daemon.call("nextTrack")
                try world.waitForHeard(1)
                world.expectHeard(0, seconds: position, ending: "skipped", "left 10 s in")
            case "stop":
                let world = try World(scenario, ["long.mp3"])
                try world.play()
                let position = try world.pause(after: 3)
                try world.stop(expecting: position, "stopped 3 s in")
            case "seeks":
                let world = try World(scenario, ["long.mp3"])
                try world.play()
                var heard = try world.pause(after: 1.5)
                for target in [30.0, 5.0] {
                    _ = try world.daemon.call("changePlaybackPosition", [("position", .number(target))])
                    try world.play()
                    heard += try world.pause(after: 1.5) - target
                }
                try world.stop(expecting: heard, "three runs, the seeks' jumps not heard")
            case "pause":
                let world = try World(scenario, ["long.mp3"])
                try world.play()
                let paused = try world.pause(after: 2)
                usleep(1_500_000)
                try world.play()
                let stopped = try world.pause(after: 2)
                try world.stop(expecting: stopped, "where it stopped")
                // 2 s played after the pause (the device's start aside), and the 1.5 s paused not.
                #expect(stopped - paused < 3.2, "paused at \(paused) s, stopped at \(stopped) s")
            case "rate 2":
                let world = try World(scenario, ["long.mp3"])
                _ = try world.daemon.call("changePlaybackRate", [("rate", .number(2))])
                try world.play()
                let position = try world.pause(after: 3)
                #expect(position > 5, "3 s at rate 2 plays 6 s of the item: \(position)")
                try world.stop(expecting: position, "the item's own seconds")
            case "repeat one":
                let world = try World(scenario, ["one.mp3"])
                _ = try world.daemon.call("changeRepeatMode", [("mode", .string("one"))])
                try world.play()
                try world.waitForHeard(2)
                world.expectHeard(0, seconds: world.durations[0], ending: "finished", "the first pass")
                world.expectHeard(1, seconds: world.durations[0], ending: "finished", "the second pass")
                let began = world.audible.compactMap { $0["began"]?.numberValue }
                #expect(began.count >= 3 && abs(began[1] - began[0] - world.durations[0]) <= Self.tolerance, "\(began)")
            case "crossfade":
                let world = try World(scenario, ["one.mp3", "two.mp3"])
                _ = try world.daemon.call("setCrossfade", [("seconds", .number(1)), ("mode", .string("always"))])
                try world.play()
                try world.waitForHeard(1)
                world.expectHeard(
                    0, seconds: world.durations[0], ending: "finished", "the overlap counts for the first")
                try world.waitForHeard(2)
                let began = world.audible.compactMap { $0["began"]?.numberValue }
                #expect(
                    began.count == 2 && abs(began[1] - began[0] - (world.durations[0] - 1)) <= Self.tolerance,
                    "the second begins a second before the first ends: \(began)")
            default:
                Issue.record("no scenario \(scenario)")
            }
        }
    }
}
