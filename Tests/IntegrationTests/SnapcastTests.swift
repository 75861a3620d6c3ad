import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The Snapcast output against Debian's snapserver and snapclient 0.26 on loopback
    /// (docs/multiroom.md); two rooms hearing a queue in real time: `MachineSuite.SnapcastRooms`.
    @Suite struct Snapcast {
        @Test(
            "a stream at the items' own rate carries their samples bit for bit (mpg123 --gapless -s), ending on silence to a whole chunk"
        )
        func sameRatePassesUntouched() throws {
            let listener = try StreamListener()
            let daemon = try DaemonProcess(arguments: [
                "--snapcast", "tcp://127.0.0.1:\(listener.port)?sampleformat=44100:16:2",
            ])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            _ = try events.waitForState("stopped", timeout: 60)
            let received = try listener.receivedUntilClosed(timeout: 10)
            var reference = Data()
            for name in ["one", "two", "three"] { reference.append(try TestEnvironment.reference(name)) }
            #expect(received.prefix(reference.count) == reference, "the samples as mpg123 decodes them")
            let tail = received.dropFirst(reference.count)
            let chunk = 44_100 * 20 / 1000 * 4
            #expect(tail.allSatisfy { $0 == 0 } && received.count % chunk == 0 && tail.count >= 3 * chunk)
        }

        @Test(
            "snapserver killed mid-play: interrupted with the position kept, the daemon answers, and play goes on by itself within 5 s of its return"
        )
        func snapserverRestarts() throws {
            let rig = try SnapcastRig()
            _ = try rig.addClient("hall")  // a room listening when snapserver goes
            let daemon = try DaemonProcess(arguments: ["--snapcast", rig.address])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true)
            try events.waitForEvent { $0["nowPlaying"]?["state"]?.stringValue == "playing" }
            try daemon.waitForElapsed(atLeast: 1)
            rig.killServer()
            let interrupted = try #require(try events.waitForState("interrupted", timeout: 10)["nowPlaying"])
            let kept = try #require(interrupted["elapsed"]?.numberValue)
            #expect(kept > 0.5 && kept < 10, "position kept: \(kept)")
            #expect(interrupted["queueCount"]?.numberValue == 2 && interrupted["title"]?.stringValue == "Long")
            // With no snapserver the daemon answers at once, and tries again on its own.
            var slowest = 0.0
            try waitUntil(timeout: 20) {
                let started = Date()
                let answer = try daemon.call("nowPlaying")["status"]?.stringValue
                slowest = max(slowest, Date().timeIntervalSince(started))
                #expect(answer == "success")
                return daemon.stderrText.contains("is not there: trying again")
            }
            #expect(slowest < 0.5, "a request took \(slowest) s while snapserver was away")

            try rig.startServer()
            let back = Date()
            let resumed = try #require(try events.waitForState("playing", timeout: 20)["nowPlaying"])
            #expect(Date().timeIntervalSince(back) < 5, "playing again \(Date().timeIntervalSince(back)) s after")
            #expect(abs((resumed["elapsed"]?.numberValue ?? -1) - kept) < 0.5, "on from \(kept)")
            // The stream reaches snapserver again: a client that connects now plays it. (The
            // client from before reconnects by itself, most runs; once, beside the rest of the
            // suite, snapclient 0.26 logged its disconnect and then nothing for 20 s while
            // playbackd streamed again. Its reconnection is snapclient's, not playbackd's.)
            let again = try rig.addClient("hall-again")
            try waitUntil(timeout: 20) { SnapcastRig.left(again).contains { abs($0) > 2000 } }
            #expect(daemon.stderrText.contains("is back after"))
        }

        @Test(
            "no snapserver at all: the state says so, one log line, every request answered, and between the growing tries the daemon sleeps"
        )
        func noSnapserver() throws {
            let nowhere = SnapcastRig.freePort()
            let daemon = try DaemonProcess(arguments: ["--snapcast", "tcp://127.0.0.1:\(nowhere)"])
            _ = try daemon.enqueue(["long.mp3"])
            let events = try daemon.connect()
            _ = try events.subscribe()
            let failed = Date()
            #expect(
                try daemon.call("play")["status"]?.stringValue == "success", "the reply does not wait for the device")
            let interrupted = try events.waitForState("interrupted")["nowPlaying"]
            #expect(interrupted?["deviceError"]?.stringValue?.contains("cannot connect to snapserver") == true)
            for _ in 0..<10 {
                let asked = Date()
                #expect(try daemon.call("nowPlaying")["status"]?.stringValue == "success")
                #expect(Date().timeIntervalSince(asked) < 0.5)
                Thread.sleep(forTimeInterval: 0.1)  // spread over the first second, across the first try
            }
            // Tries at 0.5, 1.5, 3.5 and 7.5 s, the next at 15.5 s: from 8 to 14 s only the
            // pause hold's release (10 s) may wake the event loop.
            // The window measured: 8 - 14 s after the failure.
            Thread.sleep(forTimeInterval: max(0, 8 - Date().timeIntervalSince(failed)))
            let before = try daemon.wakeups()
            Thread.sleep(forTimeInterval: 6)
            let woken = try daemon.wakeups() - before
            print("snapcast: no snapserver: \(woken) wake-ups of the event loop in 6 s between tries")
            #expect(woken <= 3, "\(woken) wake-ups in 6 s")
            let lines = daemon.stderrText.split(separator: "\n")
            #expect(lines.filter { $0.contains("is not there: trying again") }.count == 1)
            #expect(lines.filter { $0.contains("cannot open audio device") }.count == 1, "a failed try is not logged")
            #expect(try daemon.nowPlaying()["elapsed"]?.numberValue == 0, "the position is kept")
        }

        @Test(
            "through snapserver's control port, as Snapweb does: pause, play, next, previous, seek, shuffle and repeat reach playbackd, and the stream's properties follow each change"
        )
        func snapserverControlsPlaybackd() throws {
            let socket = TestEnvironment.makeTemporaryDirectory() + "/control.sock"
            // snapserver (with the plugin) first: the plugin waits for playbackd.
            let rig = try SnapcastRig(pluginSocket: socket)
            let daemon = try DaemonProcess(arguments: ["--snapcast", rig.address], socketPath: socket)
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3", "one.mp3", "two.mp3"], play: true)
            try events.waitForEvent { $0["nowPlaying"]?["state"]?.stringValue == "playing" }
            try Self.expectProperties(rig, "playing Long") {
                $0["playbackStatus"]?.stringValue == "playing" && $0["metadata"]?["title"]?.stringValue == "Long"
                    && $0["metadata"]?["artist"]?.arrayValue == [.string("Fixture Artist")]
                    && abs(($0["metadata"]?["duration"]?.numberValue ?? 0) - 40) < 0.1
                    && $0["canGoNext"]?.boolValue == true && $0["canSeek"]?.boolValue == true
            }

            let stream = { (command: String, params: JSONValue?) throws -> JSONValue in
                var members: [(String, JSONValue)] = [("id", .string("playbackd")), ("command", .string(command))]
                if let params { members.append(("params", params)) }
                return try rig.control("Stream.Control", .object(members))
            }
            #expect(try stream("pause", nil)["error"] == nil)
            try events.waitForState("paused", timeout: 5)
            try Self.expectProperties(rig, "paused") { $0["playbackStatus"]?.stringValue == "paused" }
            #expect(try stream("play", nil)["error"] == nil)
            try events.waitForState("playing", timeout: 5)
            try Self.expectProperties(rig, "playing") { $0["playbackStatus"]?.stringValue == "playing" }

            #expect(try stream("next", nil)["error"] == nil)
            try events.waitForEvent { $0["nowPlaying"]?["title"]?.stringValue == "One" }
            try Self.expectProperties(rig, "next: One") { $0["metadata"]?["title"]?.stringValue == "One" }
            #expect(try stream("previous", nil)["error"] == nil)
            try events.waitForEvent { $0["nowPlaying"]?["title"]?.stringValue == "Long" }
            try Self.expectProperties(rig, "previous: Long") { $0["metadata"]?["title"]?.stringValue == "Long" }

            #expect(try stream("setPosition", .object([("position", .number(20))]))["error"] == nil)
            let sought = try events.waitForEvent {
                let elapsed = $0["nowPlaying"]?["elapsed"]?.numberValue ?? 0
                return elapsed >= 19.99 && elapsed < 21.5
            }
            #expect(sought["nowPlaying"]?["title"]?.stringValue == "Long")
            try Self.expectProperties(rig, "position 20") { abs(($0["position"]?.numberValue ?? 0) - 20) < 2 }

            let property = { (name: String, value: JSONValue) throws -> JSONValue in
                try rig.control(
                    "Stream.SetProperty",
                    .object([("id", .string("playbackd")), ("property", .string(name)), ("value", value)]))
            }
            #expect(try property("shuffle", .bool(true))["error"] == nil)
            try events.waitForEvent { $0["nowPlaying"]?["shuffleMode"]?.stringValue == "items" }
            try Self.expectProperties(rig, "shuffle") { $0["shuffle"]?.boolValue == true }
            #expect(try property("loopStatus", .string("track"))["error"] == nil)
            try events.waitForEvent { $0["nowPlaying"]?["repeatMode"]?.stringValue == "one" }
            try Self.expectProperties(rig, "repeat one") { $0["loopStatus"]?.stringValue == "track" }

            // playbackd gone: the plugin reports stopped; back, it reports it again.
            _ = daemon.terminate()
            try Self.expectProperties(rig, "playbackd gone", within: 3) {
                $0["playbackStatus"]?.stringValue == "stopped" && $0["canControl"]?.boolValue == false
            }
            let again = try DaemonProcess(arguments: ["--snapcast", rig.address], socketPath: socket)
            _ = try again.enqueue(["one.mp3"], play: true)
            try Self.expectProperties(rig, "playbackd back", within: 3) {
                $0["canControl"]?.boolValue == true && $0["metadata"]?["title"]?.stringValue == "One"
            }
        }

        /// Waits (up to `within` seconds) for the stream's properties in `Server.GetStatus` to
        /// satisfy `predicate`. The default is 10x the second a change takes when the machine is
        /// not busy: a clean-clone run of the suite once waited longer than 1 s for a seek.
        static func expectProperties(
            _ rig: SnapcastRig, _ what: String, within seconds: Double = 10, _ predicate: (JSONValue) -> Bool
        ) throws {
            let deadline = Date().addingTimeInterval(seconds)
            var last: JSONValue?
            repeat {
                last = try rig.streamProperties()
                if let last, predicate(last) { return }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < deadline
            Issue.record("\(what): not shown within \(seconds) s: \(last?.serialized ?? "nothing")")
        }

        /// The reference decodes of `names` one after another, resampled to 48 kHz by sox (its
        /// `rate -v`, another resampler than playbackd's libsoxr HQ: the windows are compared by
        /// correlation).
        static func reference(_ names: [String]) throws -> [Float] {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let joined = directory + "/reference"
            var data = Data()
            for name in names { data.append(try TestEnvironment.reference(name)) }
            try data.write(to: URL(fileURLWithPath: joined + ".raw"))
            let sox = try CommandLineRun.run(
                executable: "/usr/bin/sox",
                [
                    "-t", "raw", "-r", "44100", "-e", "signed", "-b", "16", "-c", "2", joined + ".raw", "-t", "raw",
                    "-r", "48000", joined + ".48k.raw", "rate", "-v",
                ])
            guard sox.status == 0 else { throw TestFailure("sox: \(sox.stderr)") }
            return SnapcastRig.left(joined + ".48k.raw")
        }
    }
}

extension MachineSuite {
    /// Two rooms hearing a queue: the stream is paced by playbackd's clock against real time,
    /// and snapclients play it in real time. Beside the whole suite, playbackd's output thread
    /// once fell behind its clock (an underrun it logged) and a snapclient lost a seam; so
    /// this runs alone.
    @Suite struct SnapcastRooms {
        @Test(
            "a three-item queue reaches snapserver whole, in order, paced and without a gap (each 100 ms window at correlation >= 0.99 with the resampled reference), and two snapclients play all of it in order"
        )
        func twoRoomsHearTheQueue() throws {
            let rig = try SnapcastRig()
            let rooms = [try rig.addClient("kitchen"), try rig.addClient("study")]
            // What playbackd sends passes through a relay that keeps it: that stream is what
            // playbackd controls, and it is checked strictly.
            let relay = try StreamListener(forwardingTo: rig.sourcePort)
            let daemon = try DaemonProcess(arguments: ["--snapcast", "tcp://127.0.0.1:\(relay.port)"])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            _ = try events.waitForState("stopped", timeout: 60)
            let reference = try IntegrationSuite.Snapcast.reference(["one", "two", "three"])
            // The rooms play the end a buffer (1 s) after playbackd sent it: wait until each
            // file holds half a second past it.
            for room in rooms {
                try waitUntil(timeout: 20) {
                    let capture = SnapcastRig.left(room)
                    let offset = WindowCorrelation.alignment(of: reference, in: capture)
                    return offset.map { capture.count >= $0 + reference.count + 24_000 } ?? false
                }
            }
            rig.stopClients()

            let sent = try relay.received()
            let stream = SnapcastRig.left(sent)
            let start = try #require(WindowCorrelation.alignment(of: reference, in: stream), "nothing was sent")
            let worstSent = WindowCorrelation.worstWindow(reference, in: stream, at: start, upTo: reference.count)
            #expect(worstSent.score >= 0.99, "the stream sent: the window at \(Double(worstSent.at) / 48_000) s")
            // Paced by playbackd's clock, which kept ahead of real time (it counts the times
            // it fell behind as underruns and logs them).
            #expect(!daemon.stderrText.contains("underran"), "\(daemon.stderrText)")
            let span = relay.sendingSpan()
            #expect(span > 6.5, "7.4 s of audio was sent over \(span) s: paced, not all at once")

            // Each room plays all of it, in order: the two seams between the items are where
            // the reference puts them, and the music lasts as long. What snapserver and
            // snapclient do under a busy processor (when this test ran beside others) is theirs:
            // measured here with the stream sent whole and on time, snapserver re-timed its
            // stream ("onResync" in its log) and snapclients played silence where they found no
            // audio ("No chunks available"), moving the rooms by 30 - 100 ms, one room or both,
            // and beside `stress-ng --cpu 1` once by more than 0.3 s. So the rooms are held to
            // the order and to each seam within 1 s, and the stream playbackd sent (above) to
            // every window.
            for room in rooms {
                let capture = SnapcastRig.left(room)
                let first = try #require(capture.firstIndex { abs($0) > 200 }, "\(room): no audio")
                let last = try #require(capture.lastIndex { abs($0) > 200 })
                let firstSeam = WindowCorrelation.locate(
                    reference, second: 2.37, in: capture, near: first + 113_760, within: 1)
                let seam = try #require(firstSeam, "\(room): the seam between the first two items is not near 2.37 s")
                let lastSeam = WindowCorrelation.locate(
                    reference, second: 5.48, in: capture, near: seam + 149_280, within: 1)
                let next = try #require(
                    lastSeam, "\(room): the seam between the last two items is not near 3.11 s after the first")
                let heard = Double(last - first) / 48_000
                print(
                    "snapcast: \(room): seams at \(Double(seam - first) / 48_000) and \(Double(next - first) / 48_000) s, music for \(heard) s"
                )
                #expect(abs(heard - 7.41) < 1, "\(room): \(heard) s of music")
            }
        }
    }
}
