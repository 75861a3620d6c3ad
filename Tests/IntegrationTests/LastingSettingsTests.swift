import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Every setting a client makes that is meant to last survives a crash: made alone, then
    /// `kill -9` one second after the reply, it is there after a restart, with playback stopped
    /// and paused alike. Resume saves because its state differs from what it saved last, so no
    /// setting depends on a list that names it.
    @Suite struct LastingSettings {
        /// A setting: the request that makes it, and what of the daemon shows it.
        struct Setting: CustomTestStringConvertible, Sendable {
            var name: String
            var command: String
            var arguments: [(String, JSONValue)]
            var read: @Sendable (LibraryWorld) throws -> JSONValue
            var testDescription: String { name }

            /// A member of the now-playing snapshot.
            static func shown(_ key: String) -> @Sendable (LibraryWorld) throws -> JSONValue {
                { world in try world.daemon.nowPlaying()[key] ?? .null }
            }
        }

        static let settings: [Setting] = [
            Setting(
                name: "volume", command: "changeVolume", arguments: [("volume", .number(37))],
                read: Setting.shown("volume")),
            Setting(
                name: "equalizer", command: "setEqualizerBand",
                arguments: [("band", .number(2)), ("gain", .number(4.5))],
                read: { try $0.daemon.call("equalizer")["equalizer"] ?? .null }),
            Setting(
                name: "rate", command: "changePlaybackRate", arguments: [("rate", .number(1.5))],
                read: Setting.shown("defaultRate")),
            Setting(
                name: "phrase mode", command: "setPhraseMode",
                arguments: [("enabled", .bool(true)), ("repeats", .number(3))],
                read: Setting.shown("phraseMode")),
            Setting(
                name: "crossfade", command: "setCrossfade",
                arguments: [("seconds", .number(4)), ("mode", .string("always"))],
                read: Setting.shown("crossfade")),
            Setting(
                name: "output switch", command: "setOutputEnabled", arguments: [("enabled", .bool(false))],
                read: Setting.shown("outputEnabled")),
            Setting(
                name: "repeat", command: "changeRepeatMode", arguments: [("mode", .string("all"))],
                read: Setting.shown("repeatMode")),
            Setting(
                name: "shuffle", command: "changeShuffleMode", arguments: [("mode", .string("items"))],
                read: Setting.shown("shuffleMode")),
            Setting(
                name: "single", command: "changeSingleMode", arguments: [("mode", .string("once"))],
                read: Setting.shown("singleMode")),
            Setting(
                name: "consume", command: "changeConsumeMode", arguments: [("mode", .string("on"))],
                read: Setting.shown("consumeMode")),
            Setting(
                name: "priority", command: "setPriority",
                arguments: [("priority", .number(7)), ("indices", .array([.number(1)]))],
                read: { try $0.daemon.call("queue")["items"]?.arrayValue?[1]["priority"] ?? .null }),
            Setting(
                name: "disabled command", command: "setCommandEnabled",
                arguments: [("name", .string("skipBackward")), ("enabled", .bool(false))],
                read: { try $0.daemon.call("commands")["commands"] ?? .null }),
            Setting(
                name: "rating", command: "setRating", arguments: [("rating", .number(4))],
                read: { world in
                    let song = try world.query(LibraryWorld.only("title", "hey you"))["items"]?.arrayValue?.first
                    return song?["rating"] ?? .null
                }),
        ]

        @Test(
            "each lasting setting, made alone, is there after kill -9 one second after its reply",
            arguments: settings, ["stopped", "paused"])
        func survivesAKill(_ setting: Setting, _ state: String) throws {
            let home = TestEnvironment.makeTemporaryDirectory()
            let shared = ["XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache"]
            // Paused needs a device paced in real time: the null device would play the queue out.
            let paused = state == "paused"
            let first = try LibraryWorld(
                device: paused ? "playbackd_capture_paced" : "null", pulse: paused, environment: shared)
            _ = try first.daemon.enqueue(["long.mp3", "two.mp3"])
            if paused {
                _ = try first.daemon.call("play")
                _ = try first.daemon.waitForState("playing")
                _ = try first.daemon.call("pause")
            }
            #expect(try first.daemon.nowPlaying()["state"]?.stringValue == state)
            let unset = try setting.read(first)
            var arguments = setting.arguments
            if setting.command == "setRating" { arguments.append(("song", .string(try first.songID("Hey You")))) }
            let reply = try first.daemon.call(setting.command, arguments)
            #expect(reply["status"]?.stringValue == "success", "\(reply.serialized)")
            let made = try setting.read(first)
            #expect(made != unset, "the request changed what is shown: \(made.serialized)")
            usleep(1_000_000)
            first.daemon.signal(SIGKILL)
            _ = first.daemon.waitForExit(timeout: 5)

            let second = try DaemonProcess(
                device: "null", arguments: ["--library-directories", first.root], environment: shared)
            let restarted = LibraryWorld(root: first.root, daemon: second)
            #expect(try setting.read(restarted) == made, "\(setting.name), \(state)")
            #expect(try second.nowPlaying()["state"]?.stringValue == state)
        }
    }
}
