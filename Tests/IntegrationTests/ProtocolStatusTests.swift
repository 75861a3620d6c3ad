import ControlProtocol
import Foundation
import PlaybackModel
import Testing

extension IntegrationSuite {
    /// Acceptance 4, part 1: every command and every status over the real socket.
    @Suite struct ProtocolStatuses {
        /// A valid request for every command; the test fails when a command is missing here.
        static let validRequests: [CommandName: [(String, JSONValue)]] = [
            .play: [], .pause: [], .togglePlayPause: [], .stop: [], .nextTrack: [], .previousTrack: [],
            .skipForward: [("interval", .number(1))], .skipBackward: [("interval", .number(1))],
            .changePlaybackPosition: [("position", .number(1))],
            .enqueue: [("items", .array([.string(TestEnvironment.fixture("two.mp3"))]))],
            .clear: [], .queue: [], .nowPlaying: [], .commands: [], .subscribe: [],
            .changeRepeatMode: [("mode", .string("all"))], .changeShuffleMode: [("mode", .string("items"))],
            .changeSingleMode: [("mode", .string("off"))], .changeConsumeMode: [("mode", .string("off"))],
            .setPriority: [("priority", .number(5)), ("indices", .array([.number(0)]))],
            .remove: [("index", .number(1))], .move: [("from", .number(1)), ("to", .number(0))],
            .shuffleQueue: [],
            .jump: [("index", .number(0))],
            .setCommandEnabled: [("name", .string("play")), ("enabled", .bool(true))],
            .changeVolume: [("volume", .number(90))], .changePlaybackRate: [("rate", .number(1.25))],
            .setCrossfade: [("seconds", .number(2))], .setReplayGainMode: [("mode", .string("track"))],
            .setOutputEnabled: [("enabled", .bool(true))],
            .equalizer: [], .setEqualizerEnabled: [("enabled", .bool(true))],
            .setEqualizerBand: [("band", .number(2)), ("gain", .number(-3))],
            .setEqualizerGains: [("gains", .array(Array(repeating: .number(1), count: 10)))],
            .setEqualizerGlobalGain: [("gain", .number(-2))], .resetEqualizer: [],
            .loadEqualizer: [("preset", .string("warm"))], .saveEqualizer: [("name", .string("saved"))],
            .nextChapter: [], .previousChapter: [], .chapters: [], .setSleepTimer: [("seconds", .number(600))],
            .cancelSleepTimer: [], .bookmarks: [], .forgetBookmarks: [("all", .bool(true))],
            .setLoopRange: [("start", .number(1)), ("end", .number(2))], .clearLoopRange: [],
            .setPhraseMode: [("enabled", .bool(true)), ("repeats", .number(2))], .nextPhrase: [],
            .previousPhrase: [], .replayPhrase: [], .phrases: [], .analyzePhrases: [("threshold", .number(24))],
            .libraryQuery: [("entity", .string("albums"))], .libraryUpdate: [("full", .bool(false))],
            .libraryAnalyze: [("full", .bool(false))], .libraryStatus: [],
            .libraryFailures: [("limit", .number(10))], .setRating: [("rating", .number(3))],
            .listeningHistory: [("limit", .number(5)), ("since", .number(0))],
            .scrobbleStatus: [], .scrobbleLogin: [("service", .string("lastfm"))],
        ]

        @Test(
            "every command answers success over the socket, echoing the id, with the reply its catalog entry declares")
        func everyCommandSucceeds() throws {
            // Real-time pacing: on the unpaced file device `play` would finish the item at once.
            // The fixtures are its library: `setRating` rates the item playing, one of them.
            // Last.fm's stand-in, for `scrobbleLogin`'s first step.
            let lastFM = try ScrobbleStandIn("lastfm_server.py", ["key", "secret"])
            let secretFile = TestEnvironment.makeTemporaryDirectory() + "/lastfm.secret"
            _ = FileManager.default.createFile(
                atPath: secretFile, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600])
            let daemon = try DaemonProcess(
                device: "pulse",
                arguments: [
                    "--library-directories", TestEnvironment.fixtures, "--lastfm-url", lastFM.url + "/2.0/",
                    "--lastfm-api-key", "key", "--lastfm-api-secret-file", secretFile,
                ], pulse: true)
            try waitUntil(timeout: 60) {
                let status = try daemon.call("libraryStatus")["library"]
                return status?["state"]?.stringValue == "idle" && status?["updatedAt"] != .null
            }
            let ordered: [CommandName] = [
                .enqueue, .libraryQuery, .libraryUpdate, .libraryAnalyze, .libraryStatus, .libraryFailures, .setRating,
                .phrases,
                .listeningHistory, .scrobbleStatus, .scrobbleLogin,
                .nowPlaying, .queue, .commands, .setCommandEnabled,
                .changePlaybackPosition, .nextChapter, .previousChapter, .chapters, .setSleepTimer, .cancelSleepTimer,
                .bookmarks, .forgetBookmarks, .setLoopRange, .clearLoopRange, .skipForward, .skipBackward, .play,
                .pause,
                .togglePlayPause, .togglePlayPause, .previousTrack, .changeRepeatMode, .changeShuffleMode,
                .changeSingleMode, .changeConsumeMode,
                .changeVolume, .changePlaybackRate, .setCrossfade, .setReplayGainMode, .setOutputEnabled, .equalizer,
                .setEqualizerEnabled, .setEqualizerBand,
                .setEqualizerGains,
                .setEqualizerGlobalGain, .resetEqualizer, .loadEqualizer, .saveEqualizer,
                .setPhraseMode, .replayPhrase, .previousPhrase, .nextPhrase, .analyzePhrases, .nextTrack, .enqueue,
                .move, .shuffleQueue, .setPriority, .jump, .remove, .stop, .subscribe, .clear,
            ]
            #expect(Set(ordered) == Set(CommandName.allCases), "the test covers every command")
            #expect(Set(Self.validRequests.keys) == Set(CommandName.allCases))
            // An item with chapters, for the chapter commands.
            _ = try daemon.enqueue(["chapters.mp3"])
            for (index, name) in ordered.enumerated() {
                if name == .replayPhrase {
                    // The moves need the phrases `phrases` set out to find.
                    try waitUntil { try daemon.call("phrases")["complete"]?.boolValue == true }
                }
                let reply = try daemon.call(name.rawValue, Self.validRequests[name]!, id: .number(Double(index)))
                #expect(reply["status"]?.stringValue == "success", "\(name): \(reply.serialized)")
                #expect(reply["id"] == .number(Double(index)))
                // What playbackctl decodes: the members of the kind the catalog declares.
                let kind = CommandCatalog.spec(name).replies
                let outcome = try CommandOutcome(json: reply, kind: kind)
                #expect(outcome.kind == kind)
                if kind == .done {
                    #expect(reply.objectMembers?.count == 2, "\(name) declares no members: \(reply.serialized)")
                }
            }
        }

        @Test("noActionableNowPlayingItem without a current item")
        func noActionableItem() throws {
            let daemon = try DaemonProcess()
            for name in [
                "play", "pause", "nextTrack", "previousTrack", "skipForward", "skipBackward", "nextChapter",
                "previousChapter", "chapters",
            ] {
                let reply = try daemon.call(name)
                #expect(reply["status"]?.stringValue == "noActionableNowPlayingItem", "\(name)")
                #expect(reply["message"]?.stringValue?.isEmpty == false)
            }
            let seek = try daemon.call("changePlaybackPosition", [("position", .number(3))])
            #expect(seek["status"]?.stringValue == "noActionableNowPlayingItem")
        }

        @Test("enqueue rejects each bad file with its reason and keeps the playable ones")
        func enqueueRejectsBadFilesOneByOne() throws {
            let daemon = try DaemonProcess()
            let emptyDirectory = TestEnvironment.makeTemporaryDirectory()
            let paths =
                ["one.mp3", "missing.mp3", "unreadable.mp3", "not-audio.mp3", "garbage.mp3", "empty.mp3", "two.mp3"]
                .map(TestEnvironment.fixture) + ["/dev/null", emptyDirectory, "relative.mp3"]
            let reply = try daemon.call("enqueue", [("items", .array(paths.map(JSONValue.string)))])
            #expect(reply["status"]?.stringValue == "success")
            #expect(reply["added"]?.arrayValue?.count == 2)
            let reasons = Dictionary(
                uniqueKeysWithValues: (reply["rejected"]?.arrayValue ?? []).map {
                    (
                        ($0["path"]?.stringValue ?? "").split(separator: "/").last.map(String.init) ?? "",
                        $0["reason"]?.stringValue ?? ""
                    )
                })
            #expect(reasons["missing.mp3"] == "no such file")
            #expect(reasons["unreadable.mp3"] == "permission denied")
            #expect(reasons["not-audio.mp3"]?.hasPrefix("not an MPEG audio file") == true)
            #expect(reasons["garbage.mp3"]?.hasPrefix("not an MPEG audio file") == true)
            #expect(reasons["empty.mp3"] == "not an MPEG audio file (empty file)")
            #expect(reasons["null"] == "not a regular file")
            #expect(
                reasons[emptyDirectory.split(separator: "/").last.map(String.init) ?? ""]
                    == "no audio files in the directory")
            #expect(reasons["relative.mp3"] == "path must be absolute")
            #expect(try daemon.call("queue")["items"]?.arrayValue?.count == 2)
        }

        @Test("a FIFO named like audio, a FIFO playlist and /dev/zero are rejected at once; the prober never waits")
        func specialFilesDoNotHang() throws {
            let daemon = try DaemonProcess()
            let fifo = daemon.directory + "/fifo.mp3"
            let playlist = daemon.directory + "/fifo.m3u"
            #expect(mkfifo(fifo, 0o644) == 0 && mkfifo(playlist, 0o644) == 0)
            let client = try daemon.connect()
            client.replyTimeout = 10  // a hung prober fails the test instead of hanging it
            let paths = [fifo, playlist, "/dev/zero", TestEnvironment.fixture("one.mp3")]
            let reply = try client.request(
                .object([("command", .string("enqueue")), ("items", .array(paths.map(JSONValue.string)))]))
            #expect(reply["added"]?.arrayValue?.count == 1, "\(reply.serialized)")
            let reasons = (reply["rejected"]?.arrayValue ?? []).map { $0["reason"]?.stringValue ?? "" }
            #expect(reasons.count == 3)
            #expect(reasons.allSatisfy { $0.contains("not a regular file") }, "\(reasons)")
            let next = try client.request(
                .object([
                    ("command", .string("enqueue")), ("items", .array([.string(TestEnvironment.fixture("two.mp3"))])),
                ]))
            #expect(next["status"]?.stringValue == "success", "the prober still works")
        }

        @Test("noSuchContent when nothing is playable, or the file vanished before play")
        func noSuchContent() throws {
            let daemon = try DaemonProcess()
            let none = try daemon.call("enqueue", [("items", .array([.string("/nonexistent.mp3")]))])
            #expect(none["status"]?.stringValue == "noSuchContent")
            #expect(none["message"]?.stringValue?.contains("/nonexistent.mp3: no such file") == true)
            let copy = daemon.directory + "/vanishing.mp3"
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("one.mp3"), toPath: copy)
            #expect(
                try daemon.call("enqueue", [("items", .array([.string(copy)]))])["status"]?.stringValue == "success")
            try FileManager.default.removeItem(atPath: copy)
            let play = try daemon.call("play")
            #expect(play["status"]?.stringValue == "noSuchContent")
            #expect(try daemon.call("queue")["items"]?.arrayValue?.count == 1, "the queue is kept")
        }

        @Test(
            "a missing device: play answers at once, then interrupted is pushed with the device's error; queue and position kept"
        )
        func deviceNotFound() throws {
            let daemon = try DaemonProcess(device: "no_such_device")
            _ = try daemon.enqueue(["long.mp3"])
            _ = try daemon.call("changePlaybackPosition", [("position", .number(5))])
            let events = try daemon.connect()
            _ = try events.subscribe()
            #expect(
                try daemon.call("play")["status"]?.stringValue == "success", "the reply does not wait for the device")
            let snapshot = try events.waitForState("interrupted")["nowPlaying"]
            #expect(
                snapshot?["deviceError"]?.stringValue?.contains("cannot open audio device 'no_such_device'") == true)
            #expect(snapshot?["elapsed"]?.numberValue == 5)
            #expect(snapshot?["queueCount"]?.numberValue == 1)
            #expect(try daemon.call("play")["status"]?.stringValue == "success", "play retries the device")
            let again = try events.waitForState("interrupted")["nowPlaying"]
            #expect(again?["elapsed"]?.numberValue == 5, "the position is kept")
            #expect(try daemon.call("pause")["status"]?.stringValue == "success")
            #expect(try daemon.nowPlaying()["deviceError"] == nil, "the reason goes with the interruption")
        }

        @Test("a device that cannot play the format: interrupted, the reason says so")
        func commandFailed() throws {
            let daemon = try DaemonProcess(device: "playbackd_mulaw_only")
            _ = try daemon.enqueue(["one.mp3"])
            let events = try daemon.connect()
            _ = try events.subscribe()
            #expect(try daemon.call("play")["status"]?.stringValue == "success")
            let snapshot = try events.waitForState("interrupted")["nowPlaying"]
            #expect(snapshot?["deviceError"]?.stringValue?.contains("cannot play S16_LE 44100 Hz 2 ch") == true)
        }

        @Test("commandDisabled for a disabled command, by flag or request; re-enabling restores it")
        func commandDisabled() throws {
            let daemon = try DaemonProcess(arguments: ["--disable", "nextTrack"])
            _ = try daemon.enqueue(["one.mp3", "two.mp3"])
            #expect(try daemon.call("nextTrack")["status"]?.stringValue == "commandDisabled")
            _ = try daemon.call("setCommandEnabled", [("name", .string("skipForward")), ("enabled", .bool(false))])
            let disabled = try daemon.call("skipForward")
            #expect(disabled["status"]?.stringValue == "commandDisabled")
            #expect(disabled["message"]?.stringValue == "skipForward is disabled")
            let commands = try daemon.call("commands")["commands"]?.arrayValue ?? []
            let enabled = Dictionary(
                uniqueKeysWithValues: commands.map { ($0["command"]?.stringValue ?? "", $0["enabled"]?.boolValue) })
            #expect(enabled["skipForward"] == false)
            #expect(enabled["nextTrack"] == false)
            #expect(enabled["play"] == true)
            #expect(
                commands.first { $0["command"]?.stringValue == "skipBackward" }?["preferredIntervals"]
                    == .array([.number(15)]))
            _ = try daemon.call("setCommandEnabled", [("name", .string("nextTrack")), ("enabled", .bool(true))])
            #expect(try daemon.call("nextTrack")["status"]?.stringValue == "success")
            let notRemote = try daemon.call(
                "setCommandEnabled", [("name", .string("queue")), ("enabled", .bool(false))])
            #expect(notRemote["status"]?.stringValue == "badRequest")
        }

        @Test(
            "stop with an empty queue clears now-playing down to the state, the play modes, the volume, the rate and the crossfade"
        )
        func stopClearsNowPlaying() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["one.mp3"])
            #expect(try daemon.nowPlaying()["title"]?.stringValue == "One")
            _ = try daemon.call("clear")
            _ = try daemon.call("stop")
            #expect(
                try daemon.nowPlaying()
                    == .object([
                        ("state", .string("stopped")), ("repeatMode", .string("off")), ("shuffleMode", .string("off")),
                        ("singleMode", .string("off")), ("consumeMode", .string("off")),
                        ("volume", .number(100)), ("defaultRate", .number(1)),
                        (
                            "crossfade",
                            .object([("seconds", .number(0)), ("mode", .string("albums")), ("skipSeconds", .number(1))])
                        ),
                    ]))
        }

        @Test("nowPlaying carries every field; the title falls back to the file name")
        func nowPlayingFields() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(["untagged name.mp3"])
            let snapshot = try daemon.nowPlaying()
            #expect(snapshot["title"]?.stringValue == "untagged name")
            #expect(snapshot["artist"] == .null)
            #expect(snapshot["assetURL"]?.stringValue == "file://" + TestEnvironment.fixtures + "/untagged%20name.mp3")
            #expect(snapshot["mediaType"]?.stringValue == "audio")
            #expect(snapshot["isLiveStream"]?.boolValue == false)
            #expect(snapshot["queueIndex"]?.numberValue == 0)
            #expect(snapshot["queueCount"]?.numberValue == 1)
            #expect(abs((snapshot["duration"]?.numberValue ?? 0) - 1.2) < 0.001)
            #expect(abs((snapshot["timestamp"]?.numberValue ?? 0) - Date().timeIntervalSince1970) < 5)
        }
    }
}
