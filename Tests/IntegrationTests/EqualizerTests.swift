import AudioAnalysis
import ControlProtocol
import Foundation
import PlaybackModel
import Testing

@testable import PlaybackEngine

extension IntegrationSuite {
    /// The equalizer's commands through the daemon: each change is pushed once with the curve,
    /// malformed requests change nothing, presets load and save as parametric EQ text, an
    /// AutoEq file's response is the cookbook's, and the curve survives a restart.
    @Suite struct EqualizerCommands {
        static func equalizer(_ reply: JSONValue) throws -> Equalizer {
            try Equalizer(json: try #require(reply["equalizer"], "\(reply.serialized)"))
        }

        @Test("each equalizer command changes the curve, is pushed once with it, and is kept over a restart")
        func commandsArePushedAndKept() throws {
            let state = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let daemon = try DaemonProcess(environment: ["XDG_STATE_HOME": state])
            let initial = try daemon.call("equalizer")
            #expect(try Self.equalizer(initial) == Equalizer())
            let presets = initial["presets"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(presets == EqualizerPreset.builtIn.map(\.name).sorted())

            let events = try daemon.connect()
            _ = try events.subscribe()
            var expected = Equalizer()
            func expectPushed(_ reply: JSONValue, _ what: String) throws {
                #expect(reply["status"]?.stringValue == "success", "\(what): \(reply.serialized)")
                #expect(try Self.equalizer(reply) == expected, "\(what): the reply carries the new curve")
                let event = try events.waitForEvent(timeout: 10) { _ in true }
                #expect(event["changes"]?.arrayValue == [.string("equalizer")], "\(what)")
                #expect(try Self.equalizer(event) == expected, "\(what): the event carries the new curve")
                #expect(try events.readLine(timeout: 0.3) == nil, "\(what): one event")
            }
            expected.isEnabled = true
            try expectPushed(daemon.call("setEqualizerEnabled", [("enabled", .bool(true))]), "enable")
            expected.bands[5].gain = -6
            try expectPushed(
                daemon.call("setEqualizerBand", [("band", .number(5)), ("gain", .number(-6))]), "band gain")
            expected.bands[0] = EQBand(type: .resonantLowShelf, frequency: 80, bandwidth: 1, q: 0.7, gain: 4)
            try expectPushed(
                daemon.call(
                    "setEqualizerBand",
                    [
                        ("band", .number(0)), ("type", .string("resonantLowShelf")), ("frequency", .number(80)),
                        ("q", .number(0.7)), ("gain", .number(4)),
                    ]), "band shape")
            let gains: [Double] = [3, 3, 3, 2, 0, -6, -6, -6, -6, -6]
            for index in expected.bands.indices { expected.bands[index].gain = gains[index] }
            try expectPushed(
                daemon.call("setEqualizerGains", [("gains", .array(gains.map(JSONValue.number)))]), "all gains")
            expected.globalGain = -3
            try expectPushed(daemon.call("setEqualizerGlobalGain", [("gain", .number(-3))]), "global gain")

            // Malformed requests answer badRequest, name the problem, and change nothing.
            for (command, arguments, message) in [
                ("setEqualizerBand", [("band", JSONValue.number(10)), ("gain", .number(1))], "outside the 10 bands"),
                (
                    "setEqualizerBand", [("band", .number(1)), ("gain", .number(30))],
                    "'gain' must be -96 to 24, got 30"
                ),
                ("setEqualizerBand", [("band", .number(1))], "setEqualizerBand changes nothing"),
                (
                    "setEqualizerBand", [("band", .number(1)), ("bandwidth", .number(1)), ("q", .number(1))],
                    "'bandwidth' and 'q' cannot be combined"
                ),
                ("setEqualizerBand", [("band", .number(1)), ("type", .string("wobble"))], "'type' must be one of"),
                ("setEqualizerBand", [("band", .number(-1)), ("gain", .number(1))], "'band' must be a whole number"),
                ("setEqualizerGains", [("gains", .array([.number(1), .number(2)]))], "has 2 values for 10 bands"),
                ("setEqualizerGains", [("gains", .array([.string("x")]))], "array of numbers"),
                ("setEqualizerGlobalGain", [("gain", .number(-100))], "'gain' must be -96 to 24"),
                ("loadEqualizer", [], "loadEqualizer needs 'preset' or 'file'"),
                ("loadEqualizer", [("preset", .string("../x"))], "is not a preset name"),
                ("loadEqualizer", [("file", .string("relative.txt"))], "must be an absolute path"),
                ("saveEqualizer", [("name", .string(".hidden"))], "is not a preset name"),
            ] {
                let reply = try daemon.call(command, arguments)
                #expect(reply["status"]?.stringValue == "badRequest", "\(command) \(arguments)")
                #expect(reply["message"]?.stringValue?.contains(message) == true, "\(reply.serialized)")
            }
            let missing = try daemon.call("loadEqualizer", [("preset", .string("nope"))])
            #expect(missing["status"]?.stringValue == "noSuchContent")
            #expect(missing["message"]?.stringValue?.contains("no preset 'nope' (presets: bass-boost, flat") == true)
            #expect(try events.readLine(timeout: 0.3) == nil, "nothing changed")
            #expect(try Self.equalizer(daemon.call("equalizer")) == expected)

            // Saving writes parametric EQ text; the saved preset is listed and loads back.
            expected.preset = "mine"
            try expectPushed(daemon.call("saveEqualizer", [("name", .string("mine"))]), "save")
            let file = daemon.directory + "/config/playbackd/eq/mine.txt"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.hasPrefix("Preamp: -3 dB\nFilter 1: ON LSC Fc 80 Hz Gain 3 dB Q 0.7\n"), "\(text)")
            #expect(try daemon.call("equalizer")["presets"]?.arrayValue?.contains(.string("mine")) == true)
            let bass = EqualizerPreset.builtIn("bass-boost")!
            expected = bass
            expected.preset = "bass-boost"
            try expectPushed(daemon.call("loadEqualizer", [("preset", .string("bass-boost"))]), "load a built-in")
            let mine = try Self.equalizer(daemon.call("loadEqualizer", [("preset", .string("mine"))]))
            #expect(mine.preset == "mine" && mine.bands[0].q == 0.7 && mine.bands[5].gain == -6)
            #expect(mine.preamp + mine.globalGain == -3, "the global gain is saved in the preamp")
            _ = try events.waitForEvent(timeout: 10) { _ in true }
            expected = mine
            expected.bands[5].bypass = true
            expected.preset = nil
            try expectPushed(
                daemon.call("setEqualizerBand", [("band", .number(5)), ("bypass", .bool(true))]), "bypass")
            #expect(daemon.terminate() == 0)

            let restarted = try DaemonProcess(environment: ["XDG_STATE_HOME": state])
            #expect(try Self.equalizer(restarted.call("equalizer")) == expected, "the curve survives a restart")
        }

        @Test("playbackctl eq verbs: 'eq band 2 -4' and 'eq-band 2 -4' alike, a readable curve, usage errors")
        func cliVerbs() throws {
            let daemon = try DaemonProcess()
            #expect(try playbackctl(daemon, ["eq", "on"]).status == 0)
            #expect(try playbackctl(daemon, ["eq", "band", "2", "-4.5"]).status == 0)
            #expect(try playbackctl(daemon, ["eq-band", "3", "+2", "150", "0.5"]).status == 0)
            #expect(try playbackctl(daemon, ["eq", "global", "-1"]).status == 0)
            let curve = try Self.equalizer(daemon.call("equalizer"))
            #expect(curve.isEnabled && curve.bands[1].gain == -4.5 && curve.globalGain == -1)
            #expect(curve.bands[2] == EQBand(type: .parametric, frequency: 150, bandwidth: 0.5, gain: 2))
            let shown = try playbackctl(daemon, ["eq"])
            #expect(shown.status == 0)
            let lines = shown.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "equalizer on  preamp 0 dB  global -1 dB", "\(shown.stdout)")
            #expect(
                lines[2] == " 2  parametric             64 Hz  1 oct      -4.5 dB           ###|", "\(shown.stdout)")
            #expect(
                lines[3] == " 3  parametric            150 Hz  0.5 oct    +2.0 dB              |#", "\(shown.stdout)")
            #expect(lines.last?.hasPrefix("presets: bass-boost, flat, loudness, speech, warm") == true)
            #expect(
                try playbackctl(daemon, ["eq", "gains", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]).status == 0)
            #expect(try Self.equalizer(daemon.call("equalizer")).bands.map(\.gain) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
            #expect(try playbackctl(daemon, ["eq", "reset"]).status == 0)
            #expect(try Self.equalizer(daemon.call("equalizer")) == Equalizer(isEnabled: true))
            #expect(try playbackctl(daemon, ["eq", "off"]).status == 0)
            #expect(try Self.equalizer(daemon.call("equalizer")).isEnabled == false)
            for (arguments, message) in [
                (["eq", "band", "0", "3"], "'0' is not a band number"),
                (["eq", "band", "2", "loud"], "'loud' is not a number"),
                (["eq", "gains", "1", "2"], "has 2 values for 10 bands"),
                (["eq", "load", "nope"], "no preset 'nope'"),
            ] {
                let run = try playbackctl(daemon, arguments)
                #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }

        @Test("an AutoEq ParametricEQ.txt loads; its response through the daemon is the cookbook's within 0.1 dB")
        func autoEqResponse() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/ParametricEQ.txt"
            try """
            Preamp: -6.5 dB
            Filter 1: ON LSC Fc 200 Hz Gain 5.5 dB Q 0.71
            Filter 2: ON PK Fc 330 Hz Gain -4.2 dB Q 1.8
            Filter 3: ON HSC Fc 1000 Hz Gain 3.0 dB Q 0.71
            Filter 4: OFF PK Fc 392 Hz Gain -20 dB Q 4
            """.write(toFile: path, atomically: true, encoding: .utf8)
            let daemon = try DaemonProcess()
            let run = try playbackctl(daemon, ["eq", "load", path])
            #expect(run.status == 0, "\(run.stderr)")
            let curve = try Self.equalizer(daemon.call("equalizer"))
            #expect(curve.isEnabled && curve.preamp == -6.5 && curve.preset == path)
            #expect(curve.bands.map(\.type) == [.resonantLowShelf, .parametric, .resonantHighShelf, .parametric])
            #expect(curve.bands.map(\.bypass) == [false, false, false, true])
            _ = try daemon.enqueue(["long.mp3"], play: true)
            try daemon.waitForState("stopped", timeout: 30)

            func samples(_ data: Data) -> [Int16] {
                data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(44_100 * 2 * 6)) }
            }
            let input = samples(try TestEnvironment.reference("long"))
            let output = samples(try daemon.captured())
            // The fixture has 261.63 Hz on the left channel and 392 Hz on the right.
            for (frequency, channel) in [(261.63, 0), (392.0, 1)] {
                let expected =
                    -6.5
                    + curve.bands.filter { !$0.bypass }.map {
                        20
                            * log10(
                                BiquadCoefficients($0, sampleRate: 44_100).magnitude(at: frequency, sampleRate: 44_100))
                    }.reduce(0, +)
                let measured = ToneAnalysis.gainDB(
                    from: input, to: output, frequency, sampleRate: 44_100, from: 44_100, channel: channel)
                #expect(abs(measured - expected) < 0.1, "\(frequency) Hz: \(measured) dB, expected \(expected)")
            }
        }

        @Test(
            "1,000 equalizer and volume changes while playing: not one allocation on the output thread, and a continuous capture",
            .disabled(
                if: TestEnvironment.sanitizer != nil,
                "a sanitizer's allocator takes malloc over: the preloaded counter cannot count it")
        )
        func noAllocationOnTheOutputThread() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // A malloc counter preloaded into the daemon (Tests/Fixtures/src/malloc-count.c).
            let library = try TestEnvironment.preloadLibrary("malloc-count", in: directory)
            let counts = directory + "/counts"
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", arguments: ["--equalizer", "true"], pulse: true,
                environment: [
                    "LD_PRELOAD": library, "MALLOC_COUNT_FILE": counts, "MALLOC_COUNT_TRACE": directory + "/stacks",
                ])
            let events = try daemon.connect()
            _ = try events.subscribe()
            _ = try daemon.enqueue(["long.mp3"], play: true)
            // The changes begin once the device plays (a change before the first sample would
            // start the chain's filters on it, a transient that is not a discontinuity).
            try events.waitForEvent { $0["nowPlaying"]?["rate"]?.numberValue == 1 }
            let client = try daemon.connect()
            for change in 0..<1000 {
                let request: JSONValue =
                    change % 10 == 9
                    ? .object([("command", .string("changeVolume")), ("volume", .number(change % 20 == 9 ? 80 : 100))])
                    : .object([
                        ("command", .string("setEqualizerBand")), ("band", .number(3)),
                        ("gain", .number(change % 2 == 0 ? -6 : 3)),
                    ])
                #expect(try client.request(request)["status"]?.stringValue == "success")
                usleep(4000)  // the changes spread over seconds of play: the window measured
            }
            #expect(try daemon.nowPlaying()["state"]?.stringValue == "playing")
            // Stopped while playing: the capture ends with the shutdown fade, through the chain.
            #expect(daemon.terminate() == 0)
            let report = try String(contentsOfFile: counts, encoding: .utf8)
            let fields = Dictionary(
                uniqueKeysWithValues: report.split(whereSeparator: { $0 == " " || $0 == "\n" }).map {
                    let pair = $0.split(separator: "=")
                    return (String(pair[0]), Int(pair[1]) ?? -1)
                })
            #expect(fields["all"].map { $0 > 0 } == true, "the counter counted the daemon's allocations: \(report)")
            let stacks = (try? String(contentsOfFile: directory + "/stacks", encoding: .utf8)) ?? ""
            #expect(fields["output"] == 0, "allocations on the output thread: \(report)\n\(stacks.prefix(4000))")

            // Continuous: no step between samples larger than each tone's own slope at its
            // loudest (a dropped or repeated block would jump far more).
            let captured = try daemon.captured().withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            #expect(captured.count > 44_100 * 2 * 4, "at least the 4 s of changes were captured")
            for (channel, frequency) in [(0, 261.63), (1, 392.0)] {
                var loudest = 0
                var worst = 0
                var worstFrame = 0
                for frame in 1..<(captured.count / 2) {
                    let sample = Int(captured[frame * 2 + channel])
                    loudest = max(loudest, abs(sample))
                    let step = abs(sample - Int(captured[(frame - 1) * 2 + channel]))
                    if step > worst { (worst, worstFrame) = (step, frame) }
                }
                let slope = Double(loudest) * 2 * Double.pi * frequency / 44_100
                let around = (max(1, worstFrame - 3)..<min(captured.count / 2, worstFrame + 3)).map {
                    captured[$0 * 2 + channel]
                }
                #expect(
                    Double(worst) <= slope * 1.25 + 8,
                    "channel \(channel): step \(worst) at frame \(worstFrame) of \(captured.count / 2) \(around), the tone's slope \(slope)"
                )
            }
        }

        @Test("each malformed line of a parametric EQ file is refused with the file and the line")
        func malformedFiles() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try DaemonProcess()
            for (text, message) in [
                ("Preamp: -6 dB\nFilter 1: ON XX Fc 100 Hz Gain 1 dB Q 1\n", "line 2: unknown filter type 'XX'"),
                ("Filter 1: ON PK Fc 100 Hz Gain loud dB Q 1\n", "line 1: 'loud' is not a number (after 'Gain')"),
                ("Preamp: -6 dB\n\nFilter 1: ON PK Gain 1 dB Q 1\n", "line 3: missing 'Fc'"),
                ("Filter 1: ON PK Fc 100 Hz Q 1\n", "line 1: PK needs 'Gain'"),
                ("Filter 1: ON PK Fc 100 Hz Gain 40 dB Q 1\n", "line 1: gain 40.0 dB is outside -96 - 24 dB"),
                ("Filter 1: MAYBE PK Fc 100 Hz Gain 1 dB\n", "line 1: expected ON or OFF"),
                ("GraphicEQ: 20 -1; 40 -2\n", "line 1: 'GraphicEQ:' is not supported"),
                ("", "line 1: no Preamp or Filter lines"),
            ] {
                let path = directory + "/bad.txt"
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                let reply = try daemon.call("loadEqualizer", [("file", .string(path))])
                #expect(reply["status"]?.stringValue == "badRequest", "\(text)")
                #expect(reply["message"]?.stringValue?.hasPrefix("\(path): \(message)") == true, "\(reply.serialized)")
            }
            let gone = try daemon.call("loadEqualizer", [("file", .string(directory + "/gone.txt"))])
            #expect(gone["status"]?.stringValue == "noSuchContent")
            #expect(try Self.equalizer(daemon.call("equalizer")) == Equalizer(), "nothing was changed")
        }
    }
}
