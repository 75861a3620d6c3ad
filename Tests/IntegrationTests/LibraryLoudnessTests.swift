import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The library's loudness analysis: an untagged album measured after the scan, its
    /// loudness over both tracks together, played with `album` at -18 LUFS with its tracks'
    /// difference kept; the measures kept through a rebuilt index, and taken again when a
    /// file changes.
    @Suite struct LibraryLoudness {
        typealias Measure = IntegrationSuite.LoudnessAnalysis

        /// A library of an untagged album of two tracks (about -31 and -15 LUFS, 20 and 12 s)
        /// and a file with ReplayGain tags.
        static func makeLibrary() throws -> String {
            let root = TestEnvironment.makeTemporaryDirectory() + "/Music"
            try FileManager.default.createDirectory(atPath: root + "/Album", withIntermediateDirectories: true)
            for (number, file) in ["loud-album1.flac", "loud-album2.flac"].enumerated() {
                let path = root + "/Album/0\(number + 1).flac"
                try FileManager.default.copyItem(atPath: TestEnvironment.fixture(file), toPath: path)
                let run = try CommandLineRun.run(
                    executable: "/usr/bin/metaflac",
                    [
                        "--set-tag=ALBUM=Quiet and Loud", "--set-tag=ARTIST=Tester",
                        "--set-tag=TITLE=Track \(number + 1)",
                        "--set-tag=TRACKNUMBER=\(number + 1)", path,
                    ])
                try #require(run.status == 0, "\(run.stderr)")
            }
            try FileManager.default.copyItem(
                atPath: TestEnvironment.fixture("rg-album1.mp3"), toPath: root + "/tagged.mp3")
            return root
        }

        /// Every song of the library, by title.
        static func songs(_ world: LibraryWorld) throws -> [String: JSONValue] {
            let items = try world.query([("limit", .number(100))])["items"]?.arrayValue ?? []
            return Dictionary(
                uniqueKeysWithValues: items.compactMap { song in song["title"]?.stringValue.map { ($0, song) } })
        }

        /// Waits until the analysis has measured `count` songs and has none left.
        static func waitForAnalysis(_ world: LibraryWorld, measured count: Int) throws {
            try waitUntil(timeout: 60, state: { (try? world.status().serialized) ?? "" }) {
                let status = try world.status()
                return status["measured"]?.numberValue == Double(count) && status["toMeasure"]?.numberValue == 0
            }
        }

        @Test(
            "an untagged album is measured after the scan, its loudness over both tracks; with album, it plays at -18 LUFS and keeps its tracks' difference"
        )
        func albumAtTheReference() throws {
            let world = try LibraryWorld(
                device: "playbackd_capture", root: try Self.makeLibrary(), arguments: ["--replaygain", "album"])
            try Self.waitForAnalysis(world, measured: 2)
            let songs = try Self.songs(world)
            let (one, two) = (try #require(songs["Track 1"]), try #require(songs["Track 2"]))
            for (song, name) in [(one, "loud-album1"), (two, "loud-album2")] {
                let loudness = try #require(song["loudness"]?.numberValue, "\(song.serialized)")
                #expect(abs(loudness - (try Measure.reference(name))) <= 0.1, "\(name): \(loudness)")
                let album = try #require(song["albumLoudness"]?.numberValue)
                #expect(abs(album - (try Measure.reference("loud-album"))) <= 0.1, "album: \(album)")
            }
            #expect(songs["First"] != nil && songs["First"]?["loudness"] == nil, "the tagged file is not measured")

            let ids = [one, two].compactMap { $0["id"] }
            _ = try world.daemon.call(
                "enqueue", [("libraryIDs", .array(ids)), ("replace", .bool(true)), ("play", .bool(true))])
            try world.daemon.waitForState("stopped", timeout: 60)
            let levels = try Measure.capturedLoudness(world.daemon, frames: [20 * 44100, 12 * 44100])
            let difference = try Measure.reference("loud-album2") - Measure.reference("loud-album1")
            #expect(abs(levels[1] - levels[0] - difference) <= 0.2, "the tracks' difference kept: \(levels)")
            let whole = try Measure.capturedLoudness(world.daemon, frames: [32 * 44100])[0]
            #expect(abs(whole + 18) <= 0.3, "the album at \(whole) LUFS")
        }

        @Test(
            "a rebuilt index keeps the measures (nothing is measured again); a changed file is measured again; library analyze --full --wait measures all again and returns when done; off, it is refused"
        )
        func keptAndRenewed() throws {
            let root = try Self.makeLibrary()
            let first = try LibraryWorld(root: root)
            try Self.waitForAnalysis(first, measured: 2)
            let shared = [
                "XDG_CACHE_HOME": first.daemon.directory + "/cache",
                "XDG_STATE_HOME": first.daemon.directory + "/state",
            ]
            #expect(first.daemon.terminate() == 0)
            // A mark no measure gives, then a damaged index: rebuilt from the files.
            let user = first.daemon.directory + "/state/playbackd/library.sqlite"
            let marked = try CommandLineRun.run(
                executable: "/usr/bin/sqlite3", [user, "UPDATE loudness SET loudness = -99"])
            try #require(marked.status == 0, "\(marked.stderr)")
            let index = first.daemon.directory + "/cache/playbackd/library-index.sqlite"
            try Data("this is not a database".utf8).write(to: URL(fileURLWithPath: index))
            try? FileManager.default.removeItem(atPath: index + "-wal")
            let second = try LibraryWorld(environment: shared, root: root)
            try Self.waitForAnalysis(second, measured: 2)
            #expect(second.daemon.stderrText.contains("made anew"))
            for title in ["Track 1", "Track 2"] {
                #expect(try Self.songs(second)[title]?["loudness"]?.numberValue == -99, "\(title) kept its measure")
            }
            // library analyze: nothing to measure; a file changed is measured again, with its album.
            let nothing = try Self.analyze(second, ["--wait"])
            #expect(nothing.status == 0 && nothing.stdout.contains("loudness: 2 songs measured"), "\(nothing.stdout)")
            #expect(try Self.songs(second)["Track 1"]?["loudness"]?.numberValue == -99)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: root + "/Album/01.flac")
            #expect(try second.daemon.call("libraryUpdate")["status"]?.stringValue == "success")
            try waitUntil(timeout: 60) {
                let songs = try Self.songs(second)
                return ["Track 1", "Track 2"].allSatisfy { songs[$0]?["loudness"]?.numberValue ?? -99 != -99 }
            }
            let renewed = try #require(try Self.songs(second)["Track 1"]?["loudness"]?.numberValue)
            #expect(abs(renewed - (try Measure.reference("loud-album1"))) <= 0.1)
            // --full measures every song again, and --wait returns once it is done.
            let remarked = try CommandLineRun.run(
                executable: "/usr/bin/sqlite3", [user, "UPDATE loudness SET loudness = -99"])
            try #require(remarked.status == 0, "\(remarked.stderr)")
            let full = try Self.analyze(second, ["--full", "--wait"])
            #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
            let songs = try Self.songs(second)
            #expect(
                ["Track 1", "Track 2"].allSatisfy { songs[$0]?["loudness"]?.numberValue ?? -99 != -99 }, "\(songs)")
            // Off, it is refused with the reason.
            let off = try LibraryWorld(root: root, arguments: ["--loudness-analysis", "off"])
            let refused = try Self.analyze(off, [])
            #expect(refused.status != 0 && refused.stderr.contains("loudness-analysis"), "\(refused.stderr)")
        }

        @Test(
            "bad files: a truncated one is measured as far as it decodes; digital silence has a peak of 0, no loudness and no gain"
        )
        func badFiles() throws {
            let root = TestEnvironment.makeTemporaryDirectory() + "/Music"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            let whole = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.fixture("loud-noise-10.flac")))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: root + "/truncated.flac"))
            try FileManager.default.copyItem(
                atPath: TestEnvironment.fixture("loud-silence.flac"), toPath: root + "/silence.flac")
            let world = try LibraryWorld(root: root, arguments: ["--replaygain", "track"])
            try Self.waitForAnalysis(world, measured: 2)
            let songs = try Self.songs(world)
            let truncated = try #require(songs["truncated"]?["loudness"]?.numberValue, "\(songs)")
            #expect(abs(truncated - (try Measure.reference("loud-noise-10"))) <= 0.5)
            let silence = try #require(songs["silence"])
            #expect(silence["peak"]?.numberValue == 0 && silence["loudness"] == nil, "\(silence.serialized)")
            let id = try #require(silence["id"])
            _ = try world.daemon.call("enqueue", [("libraryIDs", .array([id])), ("replace", .bool(true))])
            let applied = try world.daemon.nowPlaying()["replayGain"]
            #expect(
                applied?["mode"]?.stringValue == "analysis" && applied?["gain"]?.numberValue == 0,
                "\(applied?.serialized ?? "")")
        }

        @Test("loudness-analysis reloads: off, nothing is measured; on after SIGHUP, the library is measured")
        func reload() throws {
            let directory = TestEnvironment.makeTemporaryDirectory()
            let config = directory + "/config.toml"
            try "loudness-analysis = \"off\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            let world = try LibraryWorld(root: try Self.makeLibrary(), arguments: ["--config", config])
            #expect(try world.status()["measured"]?.numberValue == 0)
            try "loudness-analysis = \"all\"\n".write(toFile: config, atomically: true, encoding: .utf8)
            world.daemon.signal(SIGHUP)
            // all: the tagged file too.
            try Self.waitForAnalysis(world, measured: 3)
            #expect(try Self.songs(world)["First"]?["loudness"]?.numberValue != nil)
        }

        /// `playbackctl library analyze` with `flags`, against `world`'s daemon.
        static func analyze(_ world: LibraryWorld, _ flags: [String]) throws -> CommandLineRun {
            try CommandLineRun.run("playbackctl", ["--socket", world.daemon.socketPath, "library", "analyze"] + flags)
        }
    }
}
