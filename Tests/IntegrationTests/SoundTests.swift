import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The sound chain through the daemon and the real ALSA file device: transparent settings
    /// leave every byte as `mpg123 --gapless -s` decodes it; volume scales every sample.
    @Suite struct Sound {
        @Test("a flat equalizer switched on and volume 100 leave the capture byte-identical")
        func flatIsBitExact() throws {
            let daemon = try DaemonProcess(arguments: ["--equalizer", "true", "--eq-gains", "0,0,0,0,0,0,0,0,0,0"])
            _ = try daemon.enqueue(["one.mp3", "two.mp3", "three.mp3"], play: true)
            try daemon.waitForState("stopped")
            let expected = try ["one", "two", "three"].map(TestEnvironment.reference).reduce(Data(), +)
            #expect(try daemon.captured() == expected)
        }

        @Test("volume 50 halves every sample, within the dither's ±1 LSB")
        func volumeScalesEverySample() throws {
            let daemon = try DaemonProcess(arguments: ["--volume", "50"])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let reference = try TestEnvironment.reference("long")
            let captured = try daemon.captured()
            #expect(captured.count == reference.count)
            let worst = reference.withUnsafeBytes { input in
                captured.withUnsafeBytes { output in
                    zip(input.bindMemory(to: Int16.self), output.bindMemory(to: Int16.self)).reduce(0.0) {
                        max($0, abs(Double($1.1) - Double($1.0) / 2))
                    }
                }
            }
            #expect(worst <= 1.5, "largest difference from half the reference: \(worst) LSB")
        }

        @Test("a curve boosted by 12 dB is scaled down so nothing clips; the warm preset's curve changes the sound")
        func equalizedCurveNeverClips() throws {
            let daemon = try DaemonProcess(arguments: [
                "--equalizer", "true", "--eq-gains", "12,12,12,12,12,12,12,12,12,12",
            ])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let captured = try daemon.captured()
            let peak = captured.withUnsafeBytes { $0.bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0 }
            #expect(peak < 32767, "the automatic preamp keeps a +12 dB curve from clipping (peak \(peak))")
            #expect(captured != (try TestEnvironment.reference("long")))
        }

        @Test(
            "changeVolume sets, changes and clamps the volume; it is pushed, scales the output and is kept over a restart"
        )
        func volumeCommand() throws {
            let state = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let daemon = try DaemonProcess(environment: ["XDG_STATE_HOME": state])
            #expect(try daemon.nowPlaying().number("volume") == 100)
            let events = try daemon.connect()
            _ = try events.subscribe()
            #expect(try daemon.call("changeVolume", [("volume", .number(80))])["status"]?.stringValue == "success")
            let pushed = try events.waitForEvent(timeout: 10) { _ in true }
            #expect(pushed["changes"]?.arrayValue == [.string("volume")])
            #expect(pushed["nowPlaying"]?.number("volume") == 80)
            _ = try daemon.call("changeVolume", [("change", .number(-30))])
            #expect(try daemon.nowPlaying().number("volume") == 50)
            _ = try daemon.call("changeVolume", [("change", .number(-70))])
            #expect(try daemon.nowPlaying().number("volume") == 0, "clamped at 0")
            _ = try daemon.call("changeVolume", [("volume", .number(50))])
            var levels: [Double] = []
            while let event = try events.readLine(timeout: 0.5) {
                #expect(event["changes"]?.arrayValue == [.string("volume")])
                levels.append(event["nowPlaying"]?.number("volume") ?? -1)
            }
            #expect(levels == [50, 0, 50], "one event per change")
            _ = try daemon.call("changeVolume", [("volume", .number(50))])
            #expect(try events.readLine(timeout: 0.5) == nil, "setting the same level again is no change")

            for (arguments, message) in [
                ([("volume", JSONValue.number(101))], "'volume' must be 0 to 100, got 101"),
                ([("change", .number(-150))], "'change' must be -100 to 100, got -150"),
                (
                    [("volume", .number(10)), ("change", .number(5))],
                    "changeVolume takes 'volume' or 'change', not both"
                ),
                ([], "changeVolume needs 'volume' or 'change'"),
                ([("volume", .string("loud"))], "volume"),
            ] {
                let reply = try daemon.call("changeVolume", arguments)
                #expect(reply["status"]?.stringValue == "badRequest", "\(arguments)")
                #expect(reply["message"]?.stringValue?.contains(message) == true, "\(reply.serialized)")
            }
            #expect(try daemon.nowPlaying().number("volume") == 50, "nothing was changed by bad requests")

            // The CLI: N, +N, -N and N%.
            #expect(try playbackctl(daemon, ["volume", "+10"]).status == 0)
            #expect(try daemon.nowPlaying().number("volume") == 60)
            #expect(try playbackctl(daemon, ["volume", "-5%"]).status == 0)
            #expect(try daemon.nowPlaying().number("volume") == 55)
            #expect(try playbackctl(daemon, ["volume", "50"]).status == 0)
            #expect(try playbackctl(daemon, ["status", "--format", "{{volume}}"]).stdout == "50\n")
            let bad = try playbackctl(daemon, ["volume", "loud"])
            #expect(bad.status == 2 && bad.stderr.contains("'loud' is not a volume"), "\(bad.stderr)")

            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let reference = try TestEnvironment.reference("long")
            let worst = try daemon.captured().withUnsafeBytes { output in
                reference.withUnsafeBytes { input in
                    zip(input.bindMemory(to: Int16.self), output.bindMemory(to: Int16.self)).reduce(0.0) {
                        max($0, abs(Double($1.1) - Double($1.0) / 2))
                    }
                }
            }
            #expect(worst <= 1.5, "volume 50 set by command halves every sample (worst \(worst) LSB)")
            #expect(daemon.terminate() == 0)

            let restarted = try DaemonProcess(environment: ["XDG_STATE_HOME": state])
            #expect(try restarted.nowPlaying().number("volume") == 50, "the volume survives a restart")
        }

        @Test("MPRIS Volume reads and writes the same volume, announced once")
        func mprisVolume() throws {
            let bus = try SessionBus()
            let daemon = try DaemonProcess(arguments: ["--volume", "40"], environment: bus.environment)
            _ = try bus.waitForName("org.mpris.MediaPlayer2.playbackd", timeout: 10)
            #expect(try bus.property("Volume") as? Double == 0.4)
            let monitor = try BusMonitor(bus)
            #expect(try bus.playerctl(["volume", "0.75"]).status == 0)
            #expect(try daemon.nowPlaying().number("volume") == 75)
            let signals = monitor.waitForSignals(1)
            #expect(signals.map(\.changedProperties) == [["Volume"]])
            #expect(try bus.playerctl(["volume", "1.5"]).status == 0)
            #expect(try daemon.nowPlaying().number("volume") == 100, "above 1.0 is 1.0")
        }

        @Test("bad equalizer and volume settings are refused with the setting and the reason")
        func badSettings() throws {
            for (arguments, message) in [
                (["--eq-gains", "1,2,3"], "expected ten gains, one per band, found 3"),
                (["--eq-gains", "0,0,0,0,0,0,0,0,0,30"], "30 dB is out of range (-96 to 24)"),
                (["--eq-gains", "0,0,0,0,0,0,0,0,0,x"], "'x' is not a number of dB"),
                (["--volume", "120"], "120% is out of range (0 to 100%)"),
            ] {
                let run = try CommandLineRun.run("playbackd", ["--socket", "/nonexistent/s"] + arguments)
                #expect(run.status == 2, "a bad flag is a usage error: \(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for (text, message) in [
                ("eq-gains = [1, 2]\n", "config.toml:1: eq-gains: expected ten gains, one per band, found 2"),
                ("eq-gains = [\"a\", 1]\n", "config.toml:1: eq-gains: "),
                ("volume = -1\n", "config.toml:1: volume: -1% is out of range (0 to 100%)"),
            ] {
                try text.write(toFile: directory + "/config.toml", atomically: true, encoding: .utf8)
                let run = try CommandLineRun.run(
                    "playbackd", ["--socket", "/nonexistent/s", "--config", directory + "/config.toml"])
                #expect(run.status == 78, "\(text)")
                #expect(run.stderr.contains(message), "\(text): \(run.stderr)")
            }
        }
    }
}
