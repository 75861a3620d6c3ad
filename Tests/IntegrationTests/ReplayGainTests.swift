import AudioAnalysis
import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// ReplayGain through the daemon and the real ALSA file device: tagged fixtures play at
    /// their track or album gain, the peak limits a gain that would clip, untagged files get
    /// the configured gain, and the snapshot says what was applied.
    @Suite struct ReplayGain {
        static let items = ["rg-album1", "rg-album2", "rg-loud", "untagged name"]

        /// Each item's level change in dB from its reference decode to the capture, measured
        /// away from its edges (where a gain change crossfades over 5 ms).
        static func levelChanges(_ daemon: DaemonProcess) throws -> [Double] {
            let captured = try daemon.captured().withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            var offset = 0
            var changes: [Double] = []
            for name in items {
                let reference = try TestEnvironment.reference(name).withUnsafeBytes {
                    Array($0.bindMemory(to: Int16.self))
                }
                let inner = 8_820..<(reference.count - 8_820)
                guard offset + reference.count <= captured.count else { return changes }
                let output = Array(captured[offset..<(offset + reference.count)])
                changes.append(ToneAnalysis.rmsDB(output, inner) - ToneAnalysis.rmsDB(reference, inner))
                offset += reference.count
            }
            // A clean clone's run once captured one 3 s item twice (auto mode): the log says why.
            #expect(offset == captured.count, "every frame was captured once\n\(daemon.worldLogs)")
            return changes
        }

        /// Plays `items` with `arguments`; loudness analysis off, so that the untagged item
        /// plays at `replaygain-missing` (LoudnessAnalysisTests measure it instead).
        static func play(_ arguments: [String]) throws -> (changes: [Double], snapshots: [JSONValue], peak: Int) {
            let daemon = try DaemonProcess(arguments: arguments + ["--loudness-analysis", "off"])
            _ = try daemon.enqueue(items.map { $0 + ".mp3" })
            var snapshots: [JSONValue] = []
            for index in items.indices {
                _ = try daemon.call("jump", [("index", .number(Double(index)))])
                snapshots.append(try daemon.nowPlaying())
            }
            _ = try daemon.call("jump", [("index", .number(0))])
            _ = try daemon.call("play")
            try daemon.waitForState("stopped", timeout: 30)
            let peak = try daemon.captured().withUnsafeBytes {
                $0.bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0
            }
            return (try levelChanges(daemon), snapshots, peak)
        }

        @Test(
            "each mode plays every item at its expected gain within 0.1 dB; the snapshot shows the gain applied",
            arguments: [
                // mode, preamp, missing: expected dB per item (album1, album2, loud, untagged).
                ("track", "0", "0", [6.0, -9, 20 * log10(1 / 0.95), 0], ["track", "track", "track", "untagged"]),
                ("album", "0", "-4", [-3.0, -3, 20 * log10(1 / 0.95), -4], ["album", "album", "track", "untagged"]),
                // auto: the two album items are neighbours; the loud single is not.
                ("auto", "2", "-6", [-1.0, -1, 20 * log10(1 / 0.95), -6], ["album", "album", "track", "untagged"]),
            ])
        func modes(mode: String, preamp: String, missing: String, expected: [Double], sources: [String]) throws {
            let run = try Self.play([
                "--replaygain", mode, "--replaygain-preamp", preamp, "--replaygain-missing", missing,
            ])
            #expect(run.changes.count == expected.count)
            for (index, (measured, wanted)) in zip(run.changes, expected).enumerated() {
                #expect(
                    abs(measured - wanted) < 0.1, "\(Self.items[index]) (\(mode)): \(measured) dB, expected \(wanted)")
            }
            for (index, snapshot) in run.snapshots.enumerated() {
                let applied = snapshot["replayGain"]
                #expect(applied?["mode"]?.stringValue == sources[index], "\(Self.items[index]): \(snapshot.serialized)")
                #expect(
                    abs((applied?["gain"]?.numberValue ?? .nan) - expected[index]) < 1e-9,
                    "\(Self.items[index]): \(snapshot.serialized)")
            }
            #expect(run.peak < 32767, "the peak limit keeps the +12 dB item from clipping (peak \(run.peak))")
        }

        @Test("off (the default) and replaygain-limit: a flat capture, and an unlimited gain that clips")
        func offAndLimit() throws {
            let daemon = try DaemonProcess()
            _ = try daemon.enqueue(Self.items.map { $0 + ".mp3" }, play: true)
            try daemon.waitForState("stopped", timeout: 30)
            let expected = try Self.items.map(TestEnvironment.reference).reduce(Data(), +)
            #expect(try daemon.captured() == expected, "off leaves every sample as decoded")
            #expect(try daemon.nowPlaying()["replayGain"] == nil)

            let unlimited = try Self.play(["--replaygain", "track", "--replaygain-limit", "false"])
            #expect(unlimited.peak >= 32767, "+12 dB on a 0.9 peak clips when the limit is off")
            #expect(abs(unlimited.changes[0] - 6) < 0.1)
        }

        @Test("tags are read as snapshot fields; a reload changes the mode at once while playing")
        func tagsAndReload() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let config = directory + "/config.toml"
            try "replaygain = \"off\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try DaemonProcess(device: "pulse", arguments: ["--config", config], pulse: true)
            _ = try daemon.enqueue(["rg-album2.mp3"], play: true)
            let snapshot = try daemon.waitForState("playing")
            #expect(snapshot.number("replayGainTrackGain") == -9 && snapshot.number("replayGainTrackPeak") == 0.25)
            #expect(snapshot.number("replayGainAlbumGain") == -3 && snapshot.number("replayGainAlbumPeak") == 0.5)
            let events = try daemon.connect()
            _ = try events.subscribe()
            try "replaygain = \"album\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            let event = try events.waitForEvent(timeout: 10) {
                $0["changes"]?.arrayValue?.contains(JSONValue.string("replayGain")) == true
            }
            #expect(event["nowPlaying"]?["replayGain"]?["gain"]?.numberValue == -3)
            #expect(event["nowPlaying"]?["state"]?.stringValue == "playing", "playback goes on")
        }
    }
}
