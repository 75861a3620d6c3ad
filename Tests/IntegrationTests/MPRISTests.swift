import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// MPRIS2 on a private session bus, driven by the real `playerctl` and `busctl`, checked
    /// against the daemon's own socket.
    @Suite struct MPRIS {
        static let name = "org.mpris.MediaPlayer2.playbackd"

        @Test("playerctl status, metadata, position, play-pause, next, previous, position, loop and shuffle")
        func playerctlDrivesThePlayer() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(device: "pulse", pulse: true, environment: bus.environment)
            #expect(try bus.waitForName(Self.name, timeout: 10) != nil, "\(daemon.stderrText)")
            _ = try daemon.enqueue(["long.mp3", "one.mp3"], play: true)
            try waitUntil { try bus.playerctl(["status"]).stdout == "Playing\n" }
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")

            let snapshot = try daemon.nowPlaying()
            let format = "{{artist}} - {{title}} {{mpris:length}} {{xesam:url}}"
            let expected = [
                snapshot["artist"]?.stringValue ?? "?", "-", snapshot["title"]?.stringValue ?? "?",
                String(Int64(((snapshot.number("duration") ?? 0) * 1_000_000).rounded())),
                snapshot["assetURL"]?.stringValue ?? "?",
            ].joined(separator: " ")
            #expect(try bus.playerctl(["metadata", "--format", format]).stdout == expected + "\n")

            let position = Double(
                try bus.playerctl(["position"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let ours = try daemon.nowPlaying()
            let oursNow = extrapolated(ours)
            #expect(position.map { abs($0 - oursNow) < 0.5 } == true, "playerctl \(position ?? -1), socket \(oursNow)")

            #expect(try bus.playerctl(["play-pause"]).status == 0)
            try waitUntil { try daemon.nowPlaying()["state"]?.stringValue == "paused" }
            #expect(try bus.playerctl(["status"]).stdout == "Paused\n")

            #expect(try bus.playerctl(["position", "30"]).status == 0)
            try waitUntil { abs((try daemon.nowPlaying().number("elapsed") ?? 0) - 30) < 0.01 }

            #expect(try bus.playerctl(["next"]).status == 0)
            try waitUntil { try daemon.nowPlaying().number("queueIndex") == 1 }
            #expect(try bus.playerctl(["metadata", "title"]).stdout == "One\n")
            #expect(try bus.playerctl(["previous"]).status == 0)
            try waitUntil { try daemon.nowPlaying().number("queueIndex") == 0 }

            #expect(try bus.playerctl(["loop", "Track"]).status == 0)
            try waitUntil { try daemon.nowPlaying()["repeatMode"]?.stringValue == "one" }
            #expect(try bus.playerctl(["loop"]).stdout == "Track\n")
            #expect(try bus.playerctl(["shuffle", "On"]).status == 0)
            try waitUntil { try daemon.nowPlaying()["shuffleMode"]?.stringValue == "items" }
            #expect(try bus.playerctl(["shuffle"]).stdout == "On\n")
        }

        @Test("Metadata maps every tag with MPRIS's types, from the same snapshot as the socket's")
        func metadataTypes() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            #expect(try bus.property("Metadata") as? [String: Any] != nil)
            let empty = try bus.property("Metadata") as? [String: Any]
            #expect(
                (empty?["mpris:trackid"] as? [String: Any])?["data"] as? String
                    == "/org/mpris/MediaPlayer2/TrackList/NoTrack")

            _ = try daemon.enqueue(["tag-v23-utf16.mp3"])
            let snapshot = try daemon.nowPlaying()
            guard let metadata = try bus.property("Metadata") as? [String: [String: Any]] else {
                throw TestFailure("Metadata is not a{sv}")
            }
            func entry(_ key: String) -> (type: String?, data: Any?) {
                (metadata[key]?["type"] as? String, metadata[key]?["data"])
            }
            #expect(entry("mpris:trackid").type == "o")
            #expect(
                entry("mpris:trackid").data as? String == "/org/playbackd/item/\(Int(snapshot.number("itemID") ?? -1))")
            #expect(entry("mpris:length").type == "x")
            #expect(
                (entry("mpris:length").data as? NSNumber)?.int64Value
                    == Int64(((snapshot.number("duration") ?? 0) * 1_000_000).rounded()))
            #expect(entry("mpris:artUrl").data as? String == snapshot["artworkURL"]?.stringValue)
            #expect(entry("mpris:artUrl").data as? String != nil)
            #expect(entry("xesam:url").data as? String == snapshot["assetURL"]?.stringValue)
            #expect(entry("xesam:title").type == "s")
            #expect(entry("xesam:title").data as? String == snapshot["title"]?.stringValue)
            for (key, field) in [
                ("xesam:artist", "artist"), ("xesam:albumArtist", "albumArtist"), ("xesam:genre", "genre"),
                ("xesam:composer", "composer"),
            ] {
                #expect(entry(key).type == "as", "\(key)")
                #expect(entry(key).data as? [String] == [snapshot[field]?.stringValue ?? "?"], "\(key)")
            }
            #expect(entry("xesam:album").data as? String == snapshot["album"]?.stringValue)
            #expect(entry("xesam:trackNumber").type == "i")
            #expect((entry("xesam:trackNumber").data as? NSNumber)?.doubleValue == snapshot.number("trackNumber"))
            #expect((entry("xesam:discNumber").data as? NSNumber)?.doubleValue == snapshot.number("discNumber"))

            let format = "{{artist}} - {{title}} {{mpris:length}} {{mpris:artUrl}}"
            let expected = [
                snapshot["artist"]?.stringValue ?? "?", "-", snapshot["title"]?.stringValue ?? "?",
                String(Int64(((snapshot.number("duration") ?? 0) * 1_000_000).rounded())),
                snapshot["artworkURL"]?.stringValue ?? "?",
            ].joined(separator: " ")
            #expect(try bus.playerctl(["metadata", "--format", format]).stdout == expected + "\n")
        }

        @Test("one PropertiesChanged per change with only what changed, Seeked on seeks, silence and no wake-ups idle")
        func signalsFollowChanges() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(
                device: "pulse", arguments: ["--pause-hold", "0"], pulse: true, environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            let monitor = try BusMonitor(bus)
            var seen = 0
            /// The signals since the last step, once `count` arrived and nothing more came.
            /// `playing`: a fresh PulseAudio stream can stall for a moment after it started;
            /// the daemon then re-anchors the position, and a lag of 0.5 s or more is rightly
            /// announced as `Seeked` (docs/mpris.md). Such a Seeked, while playing or right
            /// after, is set apart rather than counted as the step's signal.
            func step(
                _ count: Int, _ label: String, playing: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
            ) -> [BusSignal] {
                var all = monitor.waitForSignals(seen + count)
                if playing && all[min(seen, all.count)...].contains(where: { $0.member == "Seeked" }) {
                    all = monitor.waitForSignals(all.count + 1)
                }
                var new = Array(all[min(seen, all.count)...])
                seen = all.count
                if playing { new.removeAll { $0.member == "Seeked" } }
                #expect(
                    new.count == count, "\(label): \(new.map(\.member)) \(new.map(\.changedProperties))",
                    sourceLocation: sourceLocation)
                return new
            }

            _ = try daemon.enqueue(["long.mp3", "loop2.mp3"])
            let added = step(1, "enqueue")
            #expect(added.first?.changedProperties.contains("Metadata") == true)
            #expect(added.first?.changedProperties.contains("PlaybackStatus") == false)

            _ = try daemon.call("play")
            #expect(step(1, "play", playing: true).first?.changedProperties == ["PlaybackStatus"])
            _ = try daemon.call("pause")
            let paused = step(1, "pause", playing: true).first
            #expect(paused?.changedProperties == ["PlaybackStatus"])
            #expect(paused?.changed("PlaybackStatus") as? String == "Paused")

            _ = try daemon.call("changePlaybackPosition", [("position", .number(20))])
            let seek = step(1, "seek while paused")
            #expect(seek.first?.member == "Seeked")
            #expect(seek.first?.seekedPosition.map { abs($0 - 20) < 0.01 } == true)

            _ = try daemon.call("skipForward", [("interval", .number(15))])
            let skip = step(1, "skip while paused")
            #expect(skip.first?.seekedPosition.map { abs($0 - 35) < 0.01 } == true)

            _ = try daemon.call("changeRepeatMode", [("mode", .string("all"))])
            let mode = step(1, "repeat mode").first
            #expect(mode?.changedProperties == ["LoopStatus"])
            #expect(mode?.changed("LoopStatus") as? String == "Playlist")

            _ = try daemon.call("setCommandEnabled", [("name", .string("nextTrack")), ("enabled", .bool(false))])
            #expect(step(1, "disable").first?.changedProperties == ["CanGoNext"])
            _ = try daemon.call("setCommandEnabled", [("name", .string("nextTrack")), ("enabled", .bool(true))])
            #expect(step(1, "enable").first?.changedProperties == ["CanGoNext"])

            _ = try daemon.call("nextTrack")
            let next = step(1, "next track")
            #expect(next.first?.changedProperties.contains("Metadata") == true)
            #expect(next.allSatisfy { $0.member != "Seeked" }, "a new item is not a seek")

            // Nothing changes: nothing is sent, and no thread of the daemon wakes up, with
            // playerctl following (once it has read what it wanted and the daemon is quiet, the
            // 3 s window is what is measured).
            let follower = try LineFollower(
                ["/usr/bin/playerctl", "-p", "playbackd", "--follow", "status"], environment: bus.environment)
            #expect(follower.waitForLine(starting: "Paused", timeout: 20) != nil, "playerctl follows the player")
            try waitUntilQuiet(daemon.pid)
            let before = try threadWakeups(daemon.pid)
            Thread.sleep(forTimeInterval: 3)
            let after = try threadWakeups(daemon.pid)
            #expect(monitor.signals.count == seen, "nothing is sent while nothing changes")
            #expect(after - before == 0, "the daemon's threads woke up \(after - before) times in 3 s")
            _ = follower
        }

        @Test("a disabled command makes its Can property false and its method a D-Bus error")
        func disabledCommand() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(arguments: ["--disable", "nextTrack"], environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            _ = try daemon.enqueue(["one.mp3", "two.mp3"])
            #expect(try bus.property("CanGoNext") as? Bool == false)
            #expect(try bus.property("CanGoPrevious") as? Bool == true)
            let refused = try bus.call("Next")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("nextTrack is disabled"), "\(refused.stderr)")
            #expect(try daemon.nowPlaying().number("queueIndex") == 0)
            let monitor = try BusMonitor(bus)
            _ = try daemon.call("setCommandEnabled", [("name", .string("nextTrack")), ("enabled", .bool(true))])
            let signals = monitor.waitForSignals(1)
            #expect(signals.map(\.changedProperties) == [["CanGoNext"]])
            #expect(try bus.property("CanGoNext") as? Bool == true)
            #expect(try bus.call("Next").status == 0)
            #expect(try daemon.nowPlaying().number("queueIndex") == 1)
        }

        @Test("SetPosition with a stale track id is ignored; OpenUri plays a file; a bad URI is an error")
        func setPositionAndOpenUri() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(device: "pulse", pulse: true, environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            _ = try daemon.enqueue(["long.mp3"])
            let item = Int(try daemon.nowPlaying().number("itemID") ?? -1)
            #expect(try bus.call("SetPosition", "ox", ["/org/playbackd/item/\(item + 100)", "12000000"]).status == 0)
            #expect(try daemon.nowPlaying().number("elapsed") == 0, "a stale track id is ignored")
            #expect(try bus.call("SetPosition", "ox", ["/org/playbackd/item/\(item)", "99000000"]).status == 0)
            #expect(try daemon.nowPlaying().number("elapsed") == 0, "a position past the end is ignored")
            #expect(try bus.call("SetPosition", "ox", ["/org/playbackd/item/\(item)", "12000000"]).status == 0)
            #expect(try daemon.nowPlaying().number("elapsed") == 12)
            #expect(try bus.call("Seek", "x", ["-2500000"]).status == 0)
            #expect(try daemon.nowPlaying().number("elapsed") == 9.5)

            let uri = "file://" + TestEnvironment.fixture("untagged%20name.mp3")
            #expect(try bus.call("OpenUri", "s", [uri]).status == 0)
            let opened = try daemon.nowPlaying()
            #expect(opened["title"]?.stringValue == "untagged name")
            #expect(opened.number("queueCount") == 2)
            #expect(opened["state"]?.stringValue == "playing")

            let web = try bus.call("OpenUri", "s", ["ftp://example.com/a.mp3"])
            #expect(web.status != 0 && web.stderr.contains("only file://, http:// and https:// URIs"), "\(web.stderr)")
            let missing = try bus.call("OpenUri", "s", ["file:///nonexistent/a.mp3"])
            #expect(missing.status != 0 && missing.stderr.contains("no such file"), "\(missing.stderr)")
            #expect(try daemon.nowPlaying().number("queueCount") == 2, "nothing was lost")

            // A second daemon on the same bus takes an instance name.
            let second = try DaemonProcess(environment: bus.environment)
            let instance = "\(Self.name).instance\(second.pid)"
            #expect(try bus.waitForName(instance, timeout: 10) != nil, "\(second.stderrText)")
            #expect(try bus.hasName(Self.name))
        }

        @Test("no bus: plays and sleeps; a bus started later is joined; a bus that dies does not disturb playback")
        func busComesAndGoes() throws {
            let bus = try SessionBus(start: false)
            let daemon = try DaemonProcess(
                device: "pulse", arguments: ["--pause-hold", "0"], pulse: true, environment: bus.environment)
            // Past start-up (and its tries to reach the bus), the 2 s window is what is measured.
            try waitUntilQuiet(daemon.pid)
            let before = try threadWakeups(daemon.pid)
            Thread.sleep(forTimeInterval: 2)
            #expect(try threadWakeups(daemon.pid) - before == 0, "no spinning while there is no bus")
            #expect(daemon.stderrText.components(separatedBy: "no session bus").count == 2, "logged once")
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("playing")

            try bus.start()
            let joined = try bus.waitForName(Self.name, timeout: 10)
            #expect(joined.map { $0 < 5 } == true, "joined after \(joined ?? -1) s")
            #expect(try bus.playerctl(["status"]).stdout == "Playing\n")

            bus.kill()
            let playing = try daemon.nowPlaying()
            #expect(playing["state"]?.stringValue == "playing")
            // It plays on: the position moves on by a second.
            try daemon.waitForElapsed(atLeast: extrapolated(playing) + 1)
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")

            try bus.start()
            let rejoined = try bus.waitForName(Self.name, timeout: 10)
            #expect(rejoined.map { $0 < 5 } == true, "joined again after \(rejoined ?? -1) s")
            #expect(try bus.playerctl(["status"]).stdout == "Playing\n")

            // Killed, the bus leaves its socket file behind: the daemon tries a bounded number
            // of times, with a growing delay, and then sleeps until the socket is made again.
            _ = try daemon.call("pause")
            try waitUntilQuiet(daemon.pid)
            bus.kill()
            // The 3 s window after the bus went is what is measured: it holds the tries, each a
            // sleep ended (preemptions are the machine's load: 10 of them once failed this).
            let whileGone = try threadWakeups(daemon.pid, preemptions: false)
            Thread.sleep(forTimeInterval: 3)
            let retries = try threadWakeups(daemon.pid, preemptions: false) - whileGone
            #expect(retries < 10, "\(retries) wake-ups in 3 s with a dead bus's socket left behind")
            try bus.start()
            #expect(try bus.waitForName(Self.name, timeout: 10).map { $0 < 5 } == true)
            #expect(try bus.playerctl(["status"]).stdout == "Paused\n")
            #expect(daemon.isRunning)
        }

        @Test(
            "Rate is the playback rate: writing 1.5 is changePlaybackRate, 0 pauses, 4 is refused; the range is 0.5 - 3"
        )
        func rateProperty() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(device: "pulse", pulse: true, environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            _ = try daemon.enqueue(["long.mp3"], play: true)
            #expect(try bus.property("MinimumRate") as? Double == 0.5)
            #expect(try bus.property("MaximumRate") as? Double == 3)
            let player = [Self.name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Rate", "d"]
            #expect(try bus.busctl(["set-property"] + player + ["1.5"]).status == 0)
            #expect(try daemon.nowPlaying().number("defaultRate") == 1.5)
            #expect(try bus.property("Rate") as? Double == 1.5)
            let refused = try bus.busctl(["set-property"] + player + ["4"])
            #expect(
                refused.status != 0 && refused.stderr.contains("Rate must be 0 (pause) or 0.5 - 3.0"),
                "\(refused.stderr)")
            #expect(try daemon.nowPlaying().number("defaultRate") == 1.5)
            #expect(try bus.busctl(["set-property"] + player + ["0"]).status == 0)
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "paused")
            #expect(try bus.property("Rate") as? Double == 1.5, "a pause keeps the rate")
        }

        @Test("mpris = false leaves the bus on reload, true joins it again")
        func reloadTogglesTheBus() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            let config = daemon.directory + "/config/playbackd"
            try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
            try "mpris = false\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            try waitUntil { try !bus.hasName(Self.name) }
            try "mpris = true\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            #expect(try bus.waitForName(Self.name, timeout: 10) != nil)
        }

        @Test("busctl introspect shows every member docs/mpris.md lists, and nothing else")
        func introspectionMatchesTheDocs() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(environment: bus.environment)
            _ = try bus.waitForName(Self.name, timeout: 10)
            let run = try bus.busctl(["introspect", Self.name, "/org/mpris/MediaPlayer2"])
            #expect(run.status == 0)
            var introspected: [String] = []
            var interface = ""
            for line in run.stdout.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard columns.count >= 2 else { continue }
                if columns[1] == "interface" {
                    interface = columns[0]
                } else if interface.hasPrefix("org.mpris.") {
                    introspected.append("\(interface) \(columns[0].dropFirst()) \(columns[1]) \(columns[2])")
                }
            }
            let documented = try documentedMembers()
            #expect(introspected.sorted() == documented.sorted())
            #expect(introspected.count == 34, "\(introspected.count) members")
            _ = daemon
        }

        /// The members in docs/mpris.md's generated table: "interface member kind signature".
        private func documentedMembers() throws -> [String] {
            let text = try String(contentsOfFile: TestEnvironment.packageRoot + "/docs/mpris.md", encoding: .utf8)
            return text.split(separator: "\n").compactMap { line in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 4, cells[0].hasPrefix("`org.mpris.") else { return nil }
                let signature =
                    cells[3].replacingOccurrences(of: "`", with: "").split(separator: " ").first.map(
                        String.init) ?? "-"
                return
                    "\(cells[0].replacingOccurrences(of: "`", with: "")) \(cells[1].replacingOccurrences(of: "`", with: "")) \(cells[2]) \(signature.isEmpty ? "-" : signature)"
            }
        }
    }
}

extension MachineSuite {
    /// MPRIS signals timed to what is heard on the paced sink, alone: the loop points are held
    /// to 0.3 s of when the sink played them.
    @Suite struct MPRISLoopPoints {
        @Test("a repeat-one loop point is a jump back to 0: one Seeked per pass, sent when the loop is heard")
        func seekedAtEachLoopPoint() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(device: "pulse", pulse: true, environment: bus.environment)
            _ = try bus.waitForName(IntegrationSuite.MPRIS.name, timeout: 10)
            _ = try daemon.enqueue(["loop2.mp3"])
            _ = try daemon.call("changeRepeatMode", [("mode", .string("one"))])
            let monitor = try BusMonitor(bus)
            _ = try daemon.call("play")
            // Two passes of the 2 s item: two loop points. A fresh PulseAudio stream can stall
            // after it started, and that re-anchoring is rightly a Seeked of its own, to where
            // the stream is (docs/mpris.md; 1.50 s once): one may come before the first loop.
            let isLoopPoint = { (signal: BusSignal) in (signal.seekedPosition ?? 9) < 0.3 }
            var seeked: [BusSignal] = []
            try waitUntil(timeout: 20, state: { "\(seeked.map(\.seekedPosition))" }) {
                seeked = monitor.signals.filter { $0.member == "Seeked" }
                return seeked.filter(isLoopPoint).count >= 2
            }
            let first = seeked.firstIndex(where: isLoopPoint) ?? seeked.count
            #expect(first <= 1, "one re-anchoring at the start at most: \(seeked.map(\.seekedPosition))")
            #expect(seeked[first...].allSatisfy(isLoopPoint), "\(seeked.map(\.seekedPosition))")
        }
    }
}
