import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite {
    /// The music library on the generated library (`Scripts/lib/make-library.py`: MP3, FLAC,
    /// Ogg Vorbis, Opus and M4A tagged by mutagen): its queries, its scan, its ids and its
    /// statistics, through the real socket.
    @Suite struct Library {
        typealias World = LibraryWorld

        @Test("queries fold case and accents, match any value of a multi-valued artist, and page and sort")
        func queries() throws {
            let world = try World()
            #expect(try world.titles(World.only("artist", "beyonce")) == ["Pray You Catch Me", "Hold Up"])
            #expect(try world.titles([("text", .string("sigur ros"))]) == ["Svefn-g-englar", "Starálfur"])
            #expect(try world.titles([("text", .string("STARALF"))]) == ["Starálfur"], "a word's beginning")
            #expect(try world.titles(World.only("artist", "pharrell williams")) == ["Get Lucky"])
            #expect(try world.titles(World.only("artist", "Daft Punk")) == ["Get Lucky"])
            #expect(try world.titles(World.only("title", "thin", op: "contains")) == ["The Thin Ice"])
            #expect(try world.titles(World.only("album", "AGÆTIS", op: "startsWith")).count == 2)
            // The album artist falls back to the artist.
            #expect(try world.titles(World.only("albumArtist", "queen")) == ["Bohemian Rhapsody"])
            // An album in disc and track order, whatever the file names say.
            #expect(
                try world.titles(World.only("album", "the wall")) == ["In the Flesh?", "The Thin Ice", "Hey You"])
            // A filter turned around, and a group left out.
            let notThin = JSONValue.object([
                ("field", .string("title")), ("op", .string("contains")), ("value", .string("thin")),
                ("not", .bool(true)),
            ])
            #expect(
                try world.titles([("filters", .array([World.filter("album", .string("the wall")), notThin]))]) == [
                    "In the Flesh?", "Hey You",
                ])
            let group = JSONValue.object([
                (
                    "filters",
                    .array([
                        World.filter("title", .string("hey"), op: "contains"), World.filter("discNumber", .number(2)),
                    ])
                )
            ])
            #expect(
                try world.titles(World.only("album", "the wall") + [("exclude", .array([group]))]) == [
                    "In the Flesh?", "The Thin Ice",
                ])
            #expect(
                try world.titles(World.only("album", "the wall") + [("sort", .array([.string("-title")]))]) == [
                    "The Thin Ice", "In the Flesh?", "Hey You",
                ])
            let page = try world.query([
                ("sort", .array([.string("title")])), ("offset", .number(2)), ("limit", .number(3)),
            ])
            #expect(page["total"]?.numberValue == 13, "every readable song: \(page.serialized)")
            #expect(page["items"]?.arrayValue?.count == 3)
            #expect(
                try world.titles([("filters", .array([World.filter("year", .number(2001), op: "atLeast")]))]).sorted()
                    == [
                        "Get Lucky", "Hold Up", "Pray You Catch Me", "Song A", "Song B",
                    ])
            // A song carries its id, path, every artist and its statistics.
            let lucky = try #require(try world.query(World.only("title", "get lucky"))["items"]?.arrayValue?.first)
            #expect(lucky["artists"] == .array([.string("Daft Punk"), .string("Pharrell Williams")]))
            #expect(lucky["path"]?.stringValue == world.root + "/Daft Punk/Random Access Memories/08 Get Lucky.flac")
            #expect(lucky["playCount"]?.numberValue == 0 && lucky["rating"]?.numberValue == 0)
            #expect((lucky["dateAdded"]?.numberValue ?? 0) > 1_700_000_000)
            // Untagged: the file name is the title.
            #expect(try world.titles(World.only("path", "/Loose/", op: "contains")) == ["untagged tune"])
            // A regular expression on the value as tagged, case-insensitive, accents kept.
            #expect(try world.titles(World.only("title", "^(the|hey) ", op: "matches")) == ["The Thin Ice", "Hey You"])
            #expect(try world.titles(World.only("artist", "^beyoncé$", op: "matches")).count == 2)
            #expect(try world.titles(World.only("artist", "^beyonce$", op: "matches")).isEmpty, "not folded")
            // A pattern that backtracks without end stops at PCRE2's match limit on each value
            // (the query runs on the event loop): no match, at once. The bound is a margin a busy
            // machine never reaches; it takes milliseconds.
            let started = Date()
            #expect(try world.titles(World.only("title", "^(.*.*)*x$", op: "matches")).isEmpty)
            #expect(Date().timeIntervalSince(started) < 10)
        }

        @Test("albums: a compilation is one album, two albums of one title by two artists are two; names count songs")
        func entities() throws {
            let world = try World()
            let albums = try #require(try world.query([("entity", .string("albums"))])["items"]?.arrayValue)
            let described = albums.map {
                "\($0["album"]?.stringValue ?? "?")|\($0["albumArtist"]?.stringValue ?? "-")|\($0["songCount"]?.numberValue ?? 0)"
            }
            #expect(described.contains("Now That's Music|Various Artists|2.0"), "\(described)")
            #expect(
                described.filter { $0.hasPrefix("Greatest Hits|") }.sorted() == [
                    "Greatest Hits|ABBA|1.0", "Greatest Hits|Queen|1.0",
                ])
            #expect(described.contains("The Wall|Pink Floyd|3.0"))
            let wall = try #require(albums.first { $0["album"]?.stringValue == "The Wall" })
            #expect(wall["artworkURL"]?.stringValue?.hasSuffix("/The%20Wall/cover.jpg") == true, "\(wall.serialized)")
            #expect(wall["year"]?.numberValue == 1979 && (wall["duration"]?.numberValue ?? 0) > 2.9)
            let artists = try #require(try world.query([("entity", .string("artists"))])["items"]?.arrayValue)
            let names = artists.compactMap { $0["name"]?.stringValue }
            #expect(names.contains("Pharrell Williams") && names.contains("Daft Punk") && names.contains("Beyoncé"))
            #expect(!names.contains("Various Artists"), "a compilation's album artist is no track's artist")
            let albumArtists = try #require(
                try world.query([("entity", .string("albumArtists"))])["items"]?.arrayValue?.compactMap {
                    $0["name"]?.stringValue
                })
            #expect(albumArtists.contains("Various Artists") && !albumArtists.contains("Alpha Band"))
            let genres = try #require(try world.query([("entity", .string("genres"))])["items"]?.arrayValue)
            let rock = try #require(genres.first { $0["name"]?.stringValue == "Rock" })
            #expect(rock["songCount"]?.numberValue == 4 && rock["albumCount"]?.numberValue == 2)
        }

        @Test("a corrupt file is a failure with its reason; unknown fields, ops and entities are refused by name")
        func failuresAndBadRequests() throws {
            let world = try World()
            let failures = try world.daemon.call("libraryFailures")
            let broken = try #require(failures["failures"]?.arrayValue?.first)
            #expect(broken["path"]?.stringValue == world.root + "/Broken/broken.flac")
            #expect(broken["reason"]?.stringValue?.isEmpty == false, "\(failures.serialized)")
            #expect(try world.status()["failed"]?.numberValue == 1)
            for (members, named) in [
                ([("entity", JSONValue.string("planets"))], "planets"),
                ([("filters", .array([World.filter("mood", .string("x"))]))], "mood"),
                ([("filters", .array([World.filter("title", .string("x"), op: "like")]))], "like"),
                ([("filters", .array([World.filter("year", .number(1), op: "contains")]))], "year"),
                ([("sort", .array([.string("colour")]))], "colour"),
                ([("limit", .number(5000))], "limit"),
                ([("filters", .array([World.filter("title", .string("(unclosed"), op: "matches")]))], "(unclosed"),
            ] {
                let reply = try world.query(members)
                #expect(reply["status"]?.stringValue == "badRequest", "\(members): \(reply.serialized)")
                #expect(reply["message"]?.stringValue?.contains(named) == true, "\(reply.serialized)")
            }
            let outside = try world.daemon.call("libraryUpdate", [("path", .string("/etc"))])
            #expect(outside["status"]?.stringValue == "badRequest", "\(outside.serialized)")
        }

        @Test("enqueue of an album plays it in disc and track order, every sample flac -d's; ids and queries enqueue")
        func enqueueAlbum() throws {
            let world = try World(device: "playbackd_capture")
            let albums = try #require(
                try world.query([("entity", .string("albums"))] + World.only("album", "the wall"))["items"]?.arrayValue)
            let album = try #require(albums.first?["id"]?.stringValue)
            let events = try world.daemon.connect()
            _ = try events.subscribe()
            let reply = try world.daemon.call(
                "enqueue", [("libraryIDs", .array([.string(album)])), ("replace", .bool(true)), ("play", .bool(true))])
            #expect(
                reply["status"]?.stringValue == "success" && reply["queueCount"]?.numberValue == 3,
                "\(reply.serialized)")
            try events.waitForEvent(timeout: 60) {
                $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            var expected = Data()
            for name in ["1-01 In the Flesh", "1-02 The Thin Ice", "2-01 Hey You"] {
                let raw = world.daemon.directory + "/\(name).raw"
                let run = try CommandLineRun.run(
                    executable: "/usr/bin/flac",
                    [
                        "-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", raw,
                        world.root + "/Pink Floyd/The Wall/\(name).flac",
                    ])
                #expect(run.status == 0, "\(run.stderr)")
                expected += try Data(contentsOf: URL(fileURLWithPath: raw))
            }
            let difference = pcmDifference(try world.daemon.captured(), expected)
            #expect(difference == nil, "\(difference ?? "")")
            // A query enqueues its songs in its order; unknown ids are rejected one by one.
            let queried = try world.daemon.call(
                "enqueue",
                [("libraryQuery", .object(World.only("artist", "beyonce"))), ("replace", .bool(true))])
            #expect(queried["queueCount"]?.numberValue == 2, "\(queried.serialized)")
            let queue = try world.daemon.call("queue")["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
            #expect(queue == ["Pray You Catch Me", "Hold Up"])
            let unknown = try world.daemon.call(
                "enqueue", [("libraryIDs", .array([.string("999999"), .string("album-1")]))])
            #expect(unknown["rejected"]?.arrayValue?.count == 2, "\(unknown.serialized)")
        }

        @Test(
            "watching: a file copied in is found, renamed it keeps its id, deleted it is gone; an album appears whole")
        func watching() throws {
            let world = try World()
            let source = world.root + "/Beyoncé/Lemonade/01 Pray You Catch Me.mp3"
            let copy = world.root + "/Loose/copy.mp3"
            let before = Date()
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            try waitUntil(timeout: 30) { try world.titles(World.only("path", copy)).count == 1 }
            print("library: a copied file was found after \(Date().timeIntervalSince(before)) s")
            let id = try #require(try world.query(World.only("path", copy))["items"]?.arrayValue?.first?["id"])
            let renamed = world.root + "/Loose/renamed.mp3"
            try FileManager.default.moveItem(atPath: copy, toPath: renamed)
            try waitUntil(timeout: 30) { try world.titles(World.only("path", renamed)).count == 1 }
            #expect(try world.query(World.only("path", renamed))["items"]?.arrayValue?.first?["id"] == id)
            #expect(try world.titles(World.only("path", copy)).isEmpty)
            try FileManager.default.removeItem(atPath: renamed)
            try waitUntil(timeout: 30) { try world.titles(World.only("path", renamed)).isEmpty }
            // An album copied in file by file, as a slow copy does: scanned once, whole. The
            // status's counts follow a scan's end (counted on the library's thread after the
            // index is written), so they are taken once they agree with the index.
            try waitUntil(timeout: 30) {
                try world.status()["songs"]?.numberValue == world.query([("limit", .number(1))])["total"]?.numberValue
            }
            let songsBefore = try #require(try world.status()["songs"]?.numberValue)
            let events = try world.daemon.connect()
            _ = try events.subscribe()
            let album = world.root + "/New Album"
            try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: false)
            for name in ["1-01 In the Flesh", "1-02 The Thin Ice", "2-01 Hey You"] {
                try FileManager.default.copyItem(
                    atPath: world.root + "/Pink Floyd/The Wall/\(name).flac", toPath: album + "/\(name).flac")
                usleep(300_000)
            }
            var counts: [Double] = []
            try waitUntil(timeout: 30) {
                while let line = try events.readLine(timeout: 0.2) {
                    if let songs = line["library"]?["songs"]?.numberValue, counts.last != songs { counts.append(songs) }
                }
                return counts.last == songsBefore + 3
            }
            #expect(
                !counts.contains(songsBefore + 1) && !counts.contains(songsBefore + 2), "\(counts) from \(songsBefore)")
        }

        @Test(
            "restart: answered from the first request with the same ids; a rebuilt index keeps ids, ratings and plays")
        func restart() throws {
            let first = try World()
            let id = try first.songID("Hey You")
            #expect(
                try first.daemon.call("setRating", [("song", .string(id)), ("rating", .number(4))])["status"]?
                    .stringValue == "success")
            let shared = [
                "XDG_CACHE_HOME": first.daemon.directory + "/cache",
                "XDG_STATE_HOME": first.daemon.directory + "/state",
            ]
            let root = first.root
            #expect(first.daemon.terminate() == 0)
            let second = try DaemonProcess(
                device: "null", arguments: ["--library-directories", root], environment: shared)
            let reply = try second.call("libraryQuery", World.only("title", "hey you"))
            let song = try #require(reply["items"]?.arrayValue?.first, "answered before any scan: \(reply.serialized)")
            #expect(song["id"]?.stringValue == id && song["rating"]?.numberValue == 4)
            #expect(second.terminate() == 0)
            // A damaged index is made anew from the files; what the user made is kept.
            try Data("this is not a database".utf8).write(
                to: URL(fileURLWithPath: first.daemon.directory + "/cache/playbackd/library-index.sqlite"))
            try? FileManager.default.removeItem(
                atPath: first.daemon.directory + "/cache/playbackd/library-index.sqlite-wal")
            let third = try LibraryWorld(environment: shared, root: root)
            let rebuilt = try #require(try third.query(World.only("title", "hey you"))["items"]?.arrayValue?.first)
            #expect(rebuilt["id"]?.stringValue == id && rebuilt["rating"]?.numberValue == 4)
            #expect(third.daemon.stderrText.contains("made anew"), "\(third.daemon.stderrText)")
        }

        @Test(
            "the statistics are the history's: a listen counts a play, dated when it began; a song left in its first seconds for the next, a skip"
        )
        func statistics() throws {
            // The library with a 40 s song, which can count as a listen (the others are 1 s long),
            // paced by a sound server and heard at rate 3: its listen counts 20 s in, 7 s later.
            let root = TestEnvironment.makeTemporaryDirectory() + "/Music"
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("library"), toPath: root)
            try FileManager.default.copyItem(atPath: TestEnvironment.fixture("long.mp3"), toPath: root + "/long.mp3")
            let world = try World(device: "pulseaudio", pulse: true, root: root)
            let events = try world.daemon.connect()
            _ = try events.subscribe()
            let (skipped, long) = (try world.songID("Pray You Catch Me"), try world.songID("Long"))
            _ = try world.daemon.call("changePlaybackRate", [("rate", .number(3))])
            _ = try world.daemon.call(
                "enqueue",
                [
                    ("libraryIDs", .array([.string(skipped), .string(long)])), ("replace", .bool(true)),
                    ("play", .bool(true)),
                ])
            try events.waitForEvent(timeout: 30) { $0["nowPlaying"]?["rate"]?.numberValue == 3 }
            _ = try world.daemon.call("nextTrack")  // the first, left in its first second: a skip
            var began: Double?
            try events.waitForEvent(timeout: 60) {
                began = $0["audible"]?.arrayValue?.last?["began"]?.numberValue ?? began  // the last: Long's
                return $0["nowPlaying"]?["state"]?.stringValue == "stopped" && $0["nowPlaying"]?["title"] == nil
            }
            let statistics = { (title: String) throws -> String in
                let song = try world.query(World.only("title", title))["items"]?.arrayValue?.first ?? .null
                return "\(song["skipCount"]?.numberValue ?? -1)/\(song["playCount"]?.numberValue ?? -1)"
            }
            try waitUntil(timeout: 10) {
                try statistics("Pray You Catch Me") == "1.0/0.0" && statistics("Long") == "0.0/1.0"
            }
            let played = try #require(try world.query(World.only("title", "long"))["items"]?.arrayValue?.first)
            #expect(played["lastPlayed"]?.numberValue == began, "lastPlayed is when the listen began")
            #expect(try statistics("Hold Up") == "0.0/0.0", "never heard")
            let history = try world.daemon.call("listeningHistory")["listens"]?.arrayValue ?? []
            #expect(
                history.filter { $0["listen"]?.boolValue == true }.count == 1,
                "one source: \(history.map(\.serialized))")
            let songs = try #require(try world.status()["songs"]?.numberValue)
            #expect(
                try world.titles([("filters", .array([World.filter("playCount", .number(0))]))]).count == Int(songs) - 1
            )
        }

        @Test("a folder that is not there keeps its songs, missing, until it is back; a symbolic link loop ends")
        func missingFolderAndLoops() throws {
            let world = try World()
            let before = try #require(try world.status()["songs"]?.numberValue)
            let id = try world.songID("Waterloo")
            let away = world.root + ".away"
            try FileManager.default.moveItem(atPath: world.root, toPath: away)
            #expect(try world.daemon.call("libraryUpdate")["status"]?.stringValue == "success")
            try waitUntil(timeout: 30) { try world.titles(World.only("title", "waterloo")).isEmpty }
            try FileManager.default.moveItem(atPath: away, toPath: world.root)
            try FileManager.default.createSymbolicLink(
                atPath: world.root + "/Loose/loop", withDestinationPath: world.root)
            #expect(try world.daemon.call("libraryUpdate")["status"]?.stringValue == "success")
            try waitUntil(timeout: 30) { try world.titles(World.only("title", "waterloo")).count == 1 }
            try world.waitForScan()
            #expect(try world.songID("Waterloo") == id)
            #expect(try world.status()["songs"]?.numberValue == before, "the loop adds nothing")
        }
    }
}
