import ControlProtocol
import Foundation
import PlaybackModel
import Testing

extension IntegrationSuite {
    /// Issue 5, acceptance 5: the queue, position, modes and commands survive `kill -9` and
    /// SIGTERM; a broken state file gives a clean start with a warning.
    @Suite struct Resume {
        /// A daemon whose state lives in `stateHome` (shared by the daemons of one test).
        private func daemon(_ stateHome: String, device: String = "playbackd_capture_paced") throws -> DaemonProcess {
            try DaemonProcess(device: device, pulse: true, environment: ["XDG_STATE_HOME": stateHome])
        }

        private func stateFile(_ stateHome: String) -> String { stateHome + "/playbackd/state.json" }

        /// What must come back identical: the queue's items, the modes and the commands.
        private func lasting(_ daemon: DaemonProcess) throws -> [JSONValue] {
            let queue = try daemon.call("queue")
            let items = (queue["items"]?.arrayValue ?? []).map { item in
                JSONValue.object(
                    ["title", "assetURL", "duration", "artist"].map { ($0, item[$0] ?? .null) })
            }
            return [
                .array(items), queue["currentIndex"] ?? .null, queue["repeatMode"] ?? .null,
                queue["shuffleMode"] ?? .null, try daemon.call("commands")["commands"] ?? .null,
            ]
        }

        @Test(
            "kill -9 while playing: the queue, modes and commands come back identical, paused within 5 s of where it was"
        )
        func killNine() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let first = try daemon(stateHome)
            _ = try first.enqueue(["one.mp3", "long.mp3", "two.mp3", "three.mp3"])
            _ = try first.call("changeRepeatMode", [("mode", .string("all"))])
            _ = try first.call("changeShuffleMode", [("mode", .string("items"))])
            _ = try first.call("setCommandEnabled", [("name", .string("skipBackward")), ("enabled", .bool(false))])
            _ = try first.call("jump", [("index", .number(1))])
            _ = try first.call("play")
            _ = try first.call("changePlaybackPosition", [("position", .number(10))])
            // Until a periodic save while playing has written a position past the seek.
            var saved = 0.0
            try waitUntil(timeout: 30) {
                saved = SavedState(path: stateFile(stateHome))?["position"]?.numberValue ?? 0
                return saved > 11
            }
            let before = try lasting(first)
            let snapshot = try first.nowPlaying()
            let killedAt = Date().timeIntervalSince1970
            first.signal(SIGKILL)
            _ = first.waitForExit(timeout: 5)
            let heard = extrapolated(snapshot, at: killedAt)
            // Both are extrapolations of published anchors, and an anchor is published again
            // only when the audio has drifted from it by more than 20 ms (AnchorDriftMonitor):
            // on a busy machine the saved one was 3.6 ms ahead of the later one.
            #expect(heard >= saved - 0.02, "it played on from the saved \(saved) s: \(heard)")

            let second = try daemon(stateHome)
            #expect(try lasting(second) == before)
            let restored = try second.nowPlaying()
            #expect(restored["state"]?.stringValue == "paused")
            #expect(restored["title"]?.stringValue == "Long")
            let resumed = restored["elapsed"]?.numberValue ?? -1
            #expect(resumed <= heard + 0.05 && resumed >= heard - 5, "resumed at \(resumed), was at \(heard)")
        }

        @Test(
            "SIGTERM while playing: restarts paused within 0.1 s of the last sample played, with resume = playing playing on"
        )
        func cleanStop() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let first = try daemon(stateHome)
            _ = try first.enqueue(["long.mp3"])
            // Seek before playing, so the capture holds only what was played from 20 s on.
            _ = try first.call("changePlaybackPosition", [("position", .number(20))])
            _ = try first.call("play")
            try first.waitForElapsed(atLeast: 21.5)
            first.signal(SIGTERM)
            #expect(first.waitForExit(timeout: 5) == 0)
            // Everything written was played: the drain, then the fade, then silence.
            let played = 20 + Double(try first.captured().count) / 4 / 44_100

            let second = try daemon(stateHome)
            let restored = try second.nowPlaying()
            #expect(restored["state"]?.stringValue == "paused")
            let resumed = restored["elapsed"]?.numberValue ?? -1
            #expect(abs(resumed - played) < 0.1, "resumed at \(resumed), the last sample played was at \(played)")
            _ = try second.call("play")
            try second.waitForElapsed(atLeast: resumed + 0.5)
            second.signal(SIGTERM)
            #expect(second.waitForExit(timeout: 5) == 0)

            let config = stateHome + "/config"
            try FileManager.default.createDirectory(atPath: config + "/playbackd", withIntermediateDirectories: true)
            try "resume = \"playing\"\n".write(
                toFile: config + "/playbackd/config.toml", atomically: true, encoding: .utf8)
            let third = try DaemonProcess(
                device: "playbackd_capture_paced", pulse: true,
                environment: ["XDG_STATE_HOME": stateHome, "XDG_CONFIG_HOME": config])
            let playing = try third.waitForState("playing")
            let playedOn = playing["elapsed"]?.numberValue ?? -1
            #expect(playedOn > resumed && playedOn < resumed + 2.5, "played on from \(playedOn), paused at \(resumed)")
        }

        @Test(
            "kill -9 at 20 random moments during enqueues, seeks and track changes: the queue comes back whole, never a half-written state"
        )
        func killedAtRandomMoments() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: stateHome) }
            var generator = SplitMix64(seed: 2026)
            // The queue's length after a restart must be what it was before the round, or after
            // an enqueue that was in flight when the daemon was killed.
            var allowed: Set<Int> = [0]
            var lastPlaying: (title: String, elapsed: Double)?
            for round in 0..<20 {
                let daemon = try daemon(stateHome)
                let queue = try daemon.call("queue")
                let count = Int(queue["count"]?.numberValue ?? -1)
                #expect(allowed.contains(count), "round \(round): \(count) items, expected one of \(allowed)")
                #expect(!daemon.stderrText.contains("is unreadable"), "round \(round): the state file was whole")
                let snapshot = try daemon.nowPlaying()
                if count > 0 {
                    let index = Int(queue["currentIndex"]?.numberValue ?? -1)
                    #expect((0..<count).contains(index), "round \(round): current index \(index) of \(count)")
                    let elapsed = snapshot["elapsed"]?.numberValue ?? -1
                    #expect(elapsed >= 0 && elapsed <= (snapshot["duration"]?.numberValue ?? 0) + 0.001)
                    if let last = lastPlaying, last.title == snapshot["title"]?.stringValue {
                        #expect(
                            abs(elapsed - last.elapsed) <= 5.5, "round \(round): \(elapsed) s, was \(last.elapsed) s")
                    }
                }
                // One operation, sent without waiting for its answer, then the kill a random
                // moment later: before, during or after the daemon carries it out.
                allowed = [count]
                lastPlaying = nil
                let client = try daemon.connect()
                let operation = Int.random(in: 0..<5, using: &generator)
                switch operation {
                case 0:
                    allowed.insert(count + 2)
                    try client.send(
                        .object([
                            ("command", .string("enqueue")),
                            ("items", .array(["one.mp3", "long.mp3"].map { .string(TestEnvironment.fixture($0)) })),
                            ("play", .bool(true)),
                        ]))
                case 1:
                    try client.send(
                        .object([("command", .string("changePlaybackPosition")), ("position", .number(12))]))
                case 2: try client.send(.object([("command", .string("nextTrack"))]))
                case 3: try client.send(.object([("command", .string("togglePlayPause"))]))
                default:
                    // No command in flight: playing for a while, then killed.
                    _ = try daemon.call("play")
                    usleep(1_500_000)  // a while of play, in whatever state the queue is
                    let playing = try daemon.nowPlaying()
                    if playing["state"]?.stringValue == "playing", let title = playing["title"]?.stringValue {
                        lastPlaying = (title, playing["elapsed"]?.numberValue ?? 0)
                    }
                }
                usleep(UInt32.random(in: 0..<300_000, using: &generator))  // a moment at random: the kill's
                daemon.signal(SIGKILL)
                _ = daemon.waitForExit(timeout: 5)
            }
        }

        @Test("changes in quick succession while paused are all on disk within a second (kill -9 then)")
        func quickChangesAreSaved() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let first = try daemon(stateHome, device: "null")
            _ = try first.enqueue(["one.mp3", "two.mp3", "three.mp3"])
            for index in 0..<40 {
                _ = try first.call(
                    "setCommandEnabled", [("name", .string("nextTrack")), ("enabled", .bool(index % 2 == 1))])
            }
            _ = try first.call("changeRepeatMode", [("mode", .string("one"))])
            _ = try first.call("jump", [("index", .number(2))])
            _ = try first.call("changePlaybackPosition", [("position", .number(1.25))])
            let before = try lasting(first)
            usleep(1_000_000)  // the second within which every change must be on disk
            first.signal(SIGKILL)
            _ = first.waitForExit(timeout: 5)
            let second = try daemon(stateHome, device: "null")
            #expect(try lasting(second) == before)
            #expect(try second.nowPlaying()["elapsed"]?.numberValue == 1.25)
            let saves = first.stderrText.components(separatedBy: "saved the resume state").count - 1
            #expect(saves <= 8, "44 changes in about a second make a few writes, not one each: \(saves)")
        }

        @Test(
            "a truncated or garbage state file is moved aside with a warning and the daemon starts empty; a long queue's broken past its current item, once its head was shown",
            arguments: ["truncated", "garbage", "wrong shape", "long, broken past its head"])
        func brokenStateFile(_ kind: String) throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            do {
                let first = try daemon(stateHome, device: "null")
                _ = try first.enqueue(["one.mp3", "two.mp3"])
                #expect(first.terminate() == 0)
            }
            let path = stateFile(stateHome)
            let saved = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(saved.count > 200, "the state was saved")
            let broken: Data =
                switch kind {
                case "truncated": saved.prefix(saved.count / 2)
                case "garbage": Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
                case "wrong shape": Data(#"{"version":1,"items":[{"path":"relative.mp3"}]}"#.utf8)
                default:
                    // 6,000 items (read in two steps: the head, then the rest), item 4,000 cut short.
                    try Self.longBrokenState(saved)
                }
            try broken.write(to: URL(fileURLWithPath: path))

            let second = try daemon(stateHome, device: "null")
            #expect(try second.call("queue")["count"]?.numberValue == 0)
            #expect(try second.enqueue(["three.mp3"])["status"]?.stringValue == "success", "and works")
            #expect(second.terminate() == 0)
            #expect(second.stderrText.contains("is unreadable"), "a warning: \(second.stderrText)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: stateHome + "/playbackd")
                .filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(aside.count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: stateHome + "/playbackd/" + aside[0])) == broken)
        }

        /// `saved` (two items, the first current) made a state of 6,000 items, the first two and
        /// then the first again, whose item 4,000 is cut short.
        static func longBrokenState(_ saved: Data) throws -> Data {
            let lines = String(decoding: saved, as: UTF8.self).split(separator: "\n").map(String.init)
            try #require(
                lines.count == 3 && lines[0].contains(#""itemCount":2"#) && lines[0].contains(#""currentIndex":0"#))
            var items = [lines[1], lines[2]] + Array(repeating: lines[1], count: 5_998)
            items[4_000] = String(items[4_000].prefix(10))
            let header = lines[0].replacingOccurrences(of: #""itemCount":2"#, with: #""itemCount":6000"#)
            return Data(([header] + items).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
        }

        @Test("covers that a reboot removed (a new runtime directory) are extracted again after a restore")
        func artworkAfterReboot() throws {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let bootOne = TestEnvironment.makeTemporaryDirectory()
            let bootTwo = TestEnvironment.makeTemporaryDirectory()
            do {
                let first = try DaemonProcess(
                    device: "null", environment: ["XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": bootOne])
                _ = try first.enqueue(["tag-v23-utf16.mp3", "one.mp3"])
                let url = try first.nowPlaying()["artworkURL"]?.stringValue
                #expect(url?.hasPrefix("file://" + bootOne) == true)
                #expect(first.terminate() == 0)
            }
            try FileManager.default.removeItem(atPath: bootOne)  // the reboot
            let second = try DaemonProcess(
                device: "null", environment: ["XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": bootTwo])
            var url: String?
            try waitUntil {
                url = try second.nowPlaying()["artworkURL"]?.stringValue
                return url != nil
            }
            let path = try #require(url.map { String($0.dropFirst("file://".count)) })
            #expect(path.hasPrefix(bootTwo + "/playbackd/artwork/"))
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path))
                    == Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture("front.jpg"))))
            #expect(try second.call("queue")["items"]?.arrayValue?.last?["artworkURL"] == nil, "no cover, none made up")
        }

        @Test("files that vanished since are dropped with a log line; the current item gives way to the next")
        func vanishedFiles() throws {
            let (stateHome, music) = try savedStateOfThreeCopies(currentIndex: 1, position: 1)
            try FileManager.default.removeItem(atPath: music + "/two.mp3")
            let second = try daemon(stateHome, device: "null")
            let titles = try second.call("queue")["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
            #expect(titles == ["One", "Three"])
            let restored = try second.nowPlaying()
            #expect(restored["title"]?.stringValue == "Three" && restored["elapsed"]?.numberValue == 0)
            #expect(second.terminate() == 0)
            #expect(second.stderrText.contains("dropped \(music)/two.mp3: the file is gone"))
        }

        @Test("with the current item there, the others are checked after the first reply and dropped as well")
        func vanishedFilesBesideTheCurrent() throws {
            let (stateHome, music) = try savedStateOfThreeCopies(currentIndex: 2, position: 0.5)
            for name in ["one", "two"] { try FileManager.default.removeItem(atPath: "\(music)/\(name).mp3") }
            let second = try daemon(stateHome, device: "null")
            try waitUntil(timeout: 10) { try second.call("queue")["items"]?.arrayValue?.count == 1 }
            let restored = try second.nowPlaying()
            #expect(restored["title"]?.stringValue == "Three" && restored["elapsed"]?.numberValue == 0.5)
            #expect(restored["queueIndex"]?.numberValue == 0 && restored["queueCount"]?.numberValue == 1)
            #expect(second.terminate() == 0)
            #expect(second.stderrText.contains("dropped \(music)/one.mp3: the file is gone"))
            #expect(second.stderrText.contains("dropped \(music)/two.mp3: the file is gone"))
        }

        /// A state saved by a daemon that queued copies of one, two and three (in a directory of
        /// their own, so a test can remove them), at `currentIndex` and `position`.
        private func savedStateOfThreeCopies(
            currentIndex: Int, position: Double
        ) throws -> (stateHome: String, music: String) {
            let stateHome = TestEnvironment.makeTemporaryDirectory()
            let music = TestEnvironment.makeTemporaryDirectory()
            for name in ["one", "two", "three"] {
                try FileManager.default.copyItem(
                    atPath: TestEnvironment.fixture(name + ".mp3"), toPath: "\(music)/\(name).mp3")
            }
            let first = try daemon(stateHome, device: "null")
            _ = try first.call(
                "enqueue", [("items", .array(["one", "two", "three"].map { .string("\(music)/\($0).mp3") }))])
            _ = try first.call("jump", [("index", .number(Double(currentIndex)))])
            _ = try first.call("changePlaybackPosition", [("position", .number(position))])
            #expect(first.terminate() == 0)
            return (stateHome, music)
        }
    }
}
