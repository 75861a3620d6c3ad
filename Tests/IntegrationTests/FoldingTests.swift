import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// Letters with no accent to take off, folded as ICU's Latin-ASCII transliteration folds
    /// them, in free text and in filters: what a person types finds what they mean.
    @Suite struct Folding {
        /// Songs tagged with such letters (sox and flac make them), and the library's own.
        static func world() throws -> LibraryWorld {
            let root = TestEnvironment.makeTemporaryDirectory() + "/Music"
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("library"), toPath: root)
            let songs: [(file: String, tags: [String])] = [
                (
                    "Øystein Sevåg/Close Your Eyes/01 Ocean.flac",
                    ["ARTIST=Øystein Sevåg", "ALBUM=Close Your Eyes", "TITLE=Ocean"]
                ),
                ("Kraftwerk/Autobahn/01 Straße.flac", ["ARTIST=Kraftwerk", "ALBUM=Autobahn", "TITLE=Die Straße"]),
                ("Łona/Æther/01 Þórr.flac", ["ARTIST=Łona", "ALBUM=Æther Œuvre", "TITLE=Þórr Đuro"]),
            ]
            for song in songs {
                let path = root + "/" + song.file
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let wav = path + ".wav"
                for (program, arguments) in [
                    ("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "0.5", "sine", "440"]),
                    ("/usr/bin/flac", ["--silent", "-f", "-o", path] + song.tags.flatMap { ["-T", $0] } + [wav]),
                ] {
                    let run = try CommandLineRun.run(executable: program, arguments)
                    guard run.status == 0 else { throw TestFailure("\(program): \(run.stderr)") }
                }
                try FileManager.default.removeItem(atPath: wav)
            }
            let world = LibraryWorld(
                root: root,
                daemon: try DaemonProcess(
                    device: "null",
                    arguments: ["--library-directories", root, "--mpd-listen", root + "/../mpd.sock"]))
            try world.waitForScan()
            return world
        }

        @Test(
            "agaetis, oystein, strasse, lona, aether, oeuvre, thorr, duro find their songs; the accented spelling too")
        func specialLetters() throws {
            let world = try Self.world()
            let searches: [(String, [String])] = [
                ("agaetis", ["Svefn-g-englar", "Starálfur"]), ("ágætis", ["Svefn-g-englar", "Starálfur"]),
                ("oystein", ["Ocean"]), ("sevag", ["Ocean"]), ("strasse", ["Die Straße"]), ("STRASSE", ["Die Straße"]),
                ("straße", ["Die Straße"]), ("lona", ["Þórr Đuro"]), ("aether oeuvre", ["Þórr Đuro"]),
                ("thorr duro", ["Þórr Đuro"]), ("Þórr", ["Þórr Đuro"]),
            ]
            for (text, titles) in searches {
                #expect(try world.titles([("text", .string(text))]) == titles, "text \(text)")
            }
            // Filters fold alike: equal, contains and starts with.
            #expect(try world.titles(LibraryWorld.only("artist", "oystein sevag")) == ["Ocean"])
            #expect(try world.titles(LibraryWorld.only("title", "strass", op: "contains")) == ["Die Straße"])
            #expect(try world.titles(LibraryWorld.only("album", "aeth", op: "startsWith")) == ["Þórr Đuro"])
            // A pattern is matched against the value as tagged, not folded.
            #expect(try world.titles(LibraryWorld.only("title", "strasse", op: "matches")).isEmpty)
        }

        @Test(
            "MPD's search any matches any part of any tag, folded: onc finds Beyoncé, as MPD's does; find any stays whole"
        )
        func mpdSearchAny() throws {
            let world = try Self.world()
            let client = try MPDLineClient(path: world.root + "/../mpd.sock")
            let titles = { (request: String) throws -> [String] in
                try client.call(request).filter { $0.hasPrefix("Title: ") }.map { String($0.dropFirst(7)) }.sorted()
            }
            #expect(try titles("search any onc") == ["Hold Up", "Pray You Catch Me"])
            #expect(try titles("search any ONCÉ") == ["Hold Up", "Pray You Catch Me"], "case and accents folded")
            #expect(try titles("search any asse") == ["Die Straße"], "ß folds to ss")
            #expect(try titles("search any ys") == ["Ocean"], "two letters: each song's tags looked through")
            #expect(try titles(#"search "(any contains 'emonad')""#) == ["Hold Up", "Pray You Catch Me"])
            #expect(try titles(#"search "(!(any contains 'e'))""#).isEmpty == false)
            #expect(try titles("search any zzqx").isEmpty)
            // The native text search keeps to the beginnings of words.
            #expect(try world.titles([("text", .string("onc"))]).isEmpty)
            #expect(try world.titles(LibraryWorld.only("title", "ocea", op: "startsWith")) == ["Ocean"])
        }
    }
}
