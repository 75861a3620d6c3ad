import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Loudness measured where no ReplayGain tag is, through the daemon and the ALSA file
    /// device, judged by ffmpeg's ebur128 filter on the capture: untagged files at very
    /// different levels all play at -18 LUFS, a tagged file plays as its tags say, and an item
    /// that starts before it is measured keeps `replaygain-missing` to its end.
    @Suite struct LoudnessAnalysis {
        /// Stereo 44.1 kHz fixtures without gain tags (`Scripts/make-fixtures`): about -40, -11
        /// and -15 LUFS, 8, 8 and 12 s.
        static let files = [("loud-noise-40.flac", 8), ("loud-noise-10.flac", 8), ("loud-album2.flac", 12)]

        /// ffmpeg's measure of a fixture, from `loudness.ref`.
        static func reference(_ name: String) throws -> Double {
            let text = try String(contentsOfFile: TestEnvironment.fixture("loudness.ref"), encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") })
            return try #require(Double(line.split(separator: " ")[1]))
        }

        /// ffmpeg's integrated loudness of 16-bit stereo 44.1 kHz `samples`.
        static func ffmpegLoudness(_ samples: ArraySlice<Int16>, in directory: String) throws -> Double {
            let raw = directory + "/slice.raw"
            try Array(samples).withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
            let run = try CommandLineRun.run(
                executable: "/usr/bin/ffmpeg",
                [
                    "-nostdin", "-hide_banner", "-nostats", "-f", "s16le", "-ar", "44100", "-ac", "2", "-i", raw,
                    "-af", "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=\(directory)/r128.txt",
                    "-f", "null", "-",
                ])
            try #require(run.status == 0, "ffmpeg: \(run.stderr.suffix(500))")
            let lines = try String(contentsOfFile: directory + "/r128.txt", encoding: .utf8).split(separator: "\n")
            let last = try #require(lines.last { $0.hasPrefix("lavfi.r128.I=") })
            return try #require(Double(last.dropFirst("lavfi.r128.I=".count)))
        }

        /// The capture cut into the items played, each `frames` long, measured by ffmpeg.
        static func capturedLoudness(_ daemon: DaemonProcess, frames: [Int]) throws -> [Double] {
            let captured = try daemon.captured().withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            #expect(captured.count == frames.reduce(0, +) * 2, "every frame captured once")
            let directory = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var offset = 0
            return try frames.map { length in
                defer { offset += length * 2 }
                return try ffmpegLoudness(captured[offset..<min(captured.count, offset + length * 2)], in: directory)
            }
        }

        @Test(
            "three untagged files 29 LU apart each play at -18 LUFS within 0.3 LU; the snapshot says the gain came from analysis"
        )
        func untaggedAtTheReference() throws {
            let daemon = try DaemonProcess(arguments: ["--replaygain", "track"])
            _ = try daemon.enqueue(Self.files.map(\.0))
            // The file device plays faster than real time: every item is measured before play.
            for index in Self.files.indices.reversed() {
                _ = try daemon.call("jump", [("index", .number(Double(index)))])
                try waitUntil(timeout: 30) { try daemon.nowPlaying()["replayGain"]?["mode"]?.stringValue == "analysis" }
            }
            let gain = try #require(try daemon.nowPlaying()["replayGain"]?["gain"]?.numberValue)
            #expect(gain > 20 && gain < 24, "about +22 dB for the -40 LUFS file: \(gain)")
            _ = try daemon.call("play")
            try daemon.waitForState("stopped", timeout: 60)
            let levels = try Self.capturedLoudness(daemon, frames: Self.files.map { $0.1 * 44100 })
            for (level, file) in zip(levels, Self.files) {
                #expect(abs(level + 18) <= 0.3, "\(file.0) played at \(level) LUFS")
            }
        }

        @Test("a file with gain tags plays exactly as without analysis: the capture is byte-identical")
        func tagsWin() throws {
            var captures: [Data] = []
            for analysis in ["untagged", "off"] {
                let daemon = try DaemonProcess(arguments: ["--replaygain", "track", "--loudness-analysis", analysis])
                _ = try daemon.enqueue(["rg-album1.mp3"])
                #expect(try daemon.nowPlaying()["replayGain"]?["mode"]?.stringValue == "track")
                _ = try daemon.call("play")
                try daemon.waitForState("stopped", timeout: 30)
                captures.append(try daemon.captured())
            }
            #expect(captures[0].count > 44100 && captures[0] == captures[1])
        }

        @Test(
            "an item started at once plays at replaygain-missing throughout; one queued while it plays has its gain before it starts"
        )
        func startedBeforeMeasured() throws {
            // In real time (the paced capture), so that the second item is queued while the first plays.
            let daemon = try DaemonProcess(
                device: "playbackd_capture_paced", arguments: ["--replaygain", "track", "--replaygain-missing", "-6"],
                pulse: true)
            _ = try daemon.enqueue(["loud-noise-10.flac"], play: true)
            let playing = try daemon.waitForState("playing")
            #expect(playing["replayGain"]?["mode"]?.stringValue == "untagged", "\(playing.serialized)")
            _ = try daemon.enqueue(["loud-noise-40.flac"])
            // Measured by the time 1.5 s have played (it takes milliseconds), yet a seek, which
            // starts the item anew in the engine, keeps the gain it started with.
            try waitUntil(timeout: 30) { extrapolated(try daemon.nowPlaying()) >= 1.5 }
            _ = try daemon.call("changePlaybackPosition", [("position", .number(1))])
            #expect(try daemon.nowPlaying()["replayGain"]?["mode"]?.stringValue == "untagged")
            try daemon.waitForState("stopped", timeout: 160)
            // Stationary noise: everything before the second item's 8 s measures as the first.
            let captured = try daemon.captured().count / 4
            let levels = try Self.capturedLoudness(daemon, frames: [captured - 8 * 44100, 8 * 44100])
            let reference = try Self.reference("loud-noise-10")
            #expect(abs(levels[0] - (reference - 6)) <= 0.2, "the first item at -6 dB: \(levels[0]) LUFS")
            #expect(abs(levels[1] + 18) <= 0.3, "the second at the reference: \(levels[1]) LUFS")
        }
    }
}
