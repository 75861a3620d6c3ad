import ControlProtocol
import Foundation
import Testing

extension IntegrationSuite.MPD {
    /// The modes side by side with Debian's MPD 0.23 on the same 1 s songs, both playing in real
    /// time: after each step the modes, the state, the current song and the queue (with each
    /// song's priority) are MPD's.
    @Test("single, single oneshot, consume, prio in random mode, repeat with single: status and queue as MPD's")
    func modesAsMPD() throws {
        let world = try World()
        let reference = try ReferenceMPD(root: world.library.root)
        defer { reference.stop() }
        let players = [
            ("playbackd", try MPDLineClient(path: world.socket)), ("MPD", try MPDLineClient(path: reference.socket)),
        ]
        let songs = [
            "Pink Floyd/The Wall/1-01 In the Flesh.flac", "Pink Floyd/The Wall/1-02 The Thin Ice.flac",
            "Pink Floyd/The Wall/2-01 Hey You.flac", "Sigur Rós/Ágætis byrjun/01 Svefn-g-englar.flac",
            "Beyoncé/Lemonade/01 Pray You Catch Me.mp3",
        ]
        // Each step: its requests, then what both wait for (status lines), then the comparison.
        let steps: [(requests: [String], until: (ModeStatus) -> Bool)] = [
            (["clear"] + songs.map { "add \"\($0)\"" }, { $0.length == 5 }),
            // single without repeat: paused at the end of the song, the next one current.
            (["single 1", "play 0"], { $0.state == "pause" && $0.song == "1" }),
            // oneshot: the same, once; single is 0 after it.
            (["single oneshot", "play"], { $0.state == "pause" && $0.song == "2" }),
            // consume with single: the song played leaves the queue; paused on the one after it.
            (["single 1", "consume 1", "play"], { $0.state == "pause" && $0.length == 4 }),
            // Priorities in random mode: the higher first, each after the song playing ends.
            (["consume 0", "random 1", "prio 200 0", "prio 100 3"], { $0.state == "pause" }),
            (["play"], { $0.state == "pause" && $0.song == "0" }),
            (["play"], { $0.state == "pause" && $0.song == "3" }),
            (["prioid 0 \u{1}", "random 0"], { $0.random == "0" }),
            // repeat with single is the song again; single 0 leaves repeat.
            (["repeat 1", "single 1"], { $0.single == "1" }),
            (["single 0"], { $0.single == "0" }),
            (["repeat 0", "single 1", "repeat 1", "repeat 0"], { $0.repeats == "0" }),
            // consume alone: every song leaves as it ends, the last one too.
            (["single 0", "consume 1", "play 0"], { $0.state == "stop" && $0.length == 0 }),
        ]
        for (number, step) in steps.enumerated() {
            var seen: [String: (ModeStatus, [String])] = [:]
            for (name, client) in players {
                for request in step.requests {
                    // `prioid` names a song by its id, which each numbers its own way.
                    let line =
                        request.contains("\u{1}")
                        ? request.replacingOccurrences(of: "\u{1}", with: try Self.id(ofPosition: 0, client)) : request
                    let reply = try client.call(line)
                    #expect(reply.last.map { !$0.hasPrefix("ACK") } ?? true, "\(name): \(line): \(reply)")
                }
                try waitUntil(timeout: 20, state: { "\(name), step \(number): \((try? ModeStatus(client)) as Any)" }) {
                    step.until(try ModeStatus(client))
                }
                seen[name] = (try ModeStatus(client), try Self.queue(client))
            }
            let (mine, theirs) = (seen["playbackd"]!, seen["MPD"]!)
            #expect(mine.0 == theirs.0, "step \(number) \(step.requests): playbackd \(mine.0), MPD \(theirs.0)")
            #expect(mine.1 == theirs.1, "step \(number) \(step.requests): playbackd \(mine.1), MPD \(theirs.1)")
        }
    }

    /// The queue's files and priorities, in order.
    static func queue(_ client: MPDLineClient) throws -> [String] {
        try client.call("playlistinfo").filter { $0.hasPrefix("file: ") || $0.hasPrefix("Prio: ") }
    }

    static func id(ofPosition position: Int, _ client: MPDLineClient) throws -> String {
        let lines = try client.call("playlistinfo \(position)")
        guard let id = lines.first(where: { $0.hasPrefix("Id: ") }) else { throw TestFailure("no song \(position)") }
        return String(id.dropFirst(4))
    }
}

/// What `status` says of the modes, the state and the current song.
struct ModeStatus: Equatable, CustomStringConvertible {
    var repeats, random, single, consume, state: String
    var song: String?
    var length: Int

    init(_ client: MPDLineClient) throws {
        var fields: [String: String] = [:]
        for line in try client.call("status") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(colon, offsetBy: 2)...])
        }
        repeats = fields["repeat"] ?? "?"
        random = fields["random"] ?? "?"
        single = fields["single"] ?? "?"
        consume = fields["consume"] ?? "?"
        state = fields["state"] ?? "?"
        // Stopped, MPD shows no song before the first play; playbackd makes the first item
        // enqueued current (its own rule, docs/mpd.md).
        song = state == "stop" ? nil : fields["song"]
        length = Int(fields["playlistlength"] ?? "") ?? -1
    }

    var description: String {
        "repeat \(repeats) random \(random) single \(single) consume \(consume) \(state) song \(song ?? "-") of \(length)"
    }
}

extension IntegrationSuite.MPD {
    /// MPD 0.24's protocol document (doc/protocol.rst), each reply from the section named
    /// beside it: "Filters" (`added-since`, `modified-since`), "Other Metadata" (`Last-Modified`,
    /// `added`), "The music database" (`searchcount`), "Stored playlists" (`playlistlength`),
    /// "Connection settings" (`tagtypes available`, `tagtypes reset`, `protocol`), "Playback
    /// options" (`consume oneshot`).
    @Test(
        "MPD 0.24: songs say Last-Modified and Added; added-since and modified-since filter by them; searchcount, playlistlength, tagtypes available/reset, protocol, consume oneshot"
    )
    func addedAndModified() throws {
        let world = try World()
        let client = try MPDLineClient(path: world.socket)
        let song = try client.call(#"lsinfo "Pink Floyd/The Wall/1-01 In the Flesh.flac""#)
        let stamp = #/^(Added|Last-Modified): \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/#
        #expect(song.filter { $0.wholeMatch(of: stamp) != nil }.count == 2, "\(song)")
        let titles = { (request: String) throws -> Int in
            try client.call(request).filter { $0.hasPrefix("file: ") }.count
        }
        let all = try titles(#"search "(added-since '2000-01-01T00:00:00Z')""#)
        #expect(all > 10)
        #expect(try titles(#"search "(added-since '2999-01-01')""#) == 0)
        #expect(try titles(#"search "(modified-since '2000-01-01')""#) == all)
        #expect(try client.call("search added-since soon") == ["ACK [2@0] {search} Failed to parse time stamp: soon"])
        // Section "The music database", searchcount: count's parameters, the search not case
        // sensitive; section "Stored playlists", playlistlength: its songs and playtime.
        #expect(try client.call(#"searchcount album "WALL""#) == ["songs: 3", "playtime: 3", "OK"])
        #expect(try client.call(#"count album "WALL""#) == ["songs: 0", "playtime: 0", "OK"])
        #expect(try client.call("clear") == ["OK"])
        #expect(try client.call(#"add "Pink Floyd/The Wall""#) == ["OK"])
        #expect(try client.call("save wall") == ["OK"])
        #expect(try client.call("playlistlength wall") == ["songs: 3", "playtime: 3", "OK"])
        #expect(try client.call("playlistlength nothing") == ["ACK [50@0] {playlistlength} No such playlist"])
        // "Connection settings": tagtypes available lists the tag types; reset clears the list
        // and enables the ones named; protocol lists, enables and disables features, and
        // hide_playlists_in_root leaves the stored playlists out of the root's lsinfo.
        let available = try client.call("tagtypes available")
        #expect(available.contains("tagtype: Artist") && available.count > 5)
        #expect(try client.call("tagtypes reset Title") == ["OK"])
        let titleOnly = try client.call(#"lsinfo "Pink Floyd/The Wall/1-01 In the Flesh.flac""#)
        #expect(titleOnly.contains("Title: In the Flesh?") && !titleOnly.contains { $0.hasPrefix("Artist: ") })
        #expect(try client.call("tagtypes all") == ["OK"])
        #expect(try client.call("protocol") == ["OK"])
        #expect(try client.call("protocol available") == ["feature: hide_playlists_in_root", "OK"])
        #expect(try client.call("lsinfo").contains("playlist: wall"))
        #expect(try client.call("protocol enable hide_playlists_in_root") == ["OK"])
        #expect(try client.call("protocol") == ["feature: hide_playlists_in_root", "OK"])
        #expect(try !client.call("lsinfo").contains("playlist: wall"))
        #expect(try client.call("protocol enable teleport") == ["ACK [2@0] {protocol} Unknown protocol feature"])
        #expect(try client.call("protocol clear") == ["OK"])
        #expect(try client.call("lsinfo").contains("playlist: wall"))
        // consume oneshot: "Sets consume state to STATE, STATE should be 0, 1 or oneshot".
        #expect(try client.call("consume oneshot") == ["OK"])
        #expect(try client.call("status").contains("consume: oneshot"))
        #expect(
            try client.call("consume 2") == ["ACK [2@0] {consume} Unrecognized consume mode, expected 0, 1 or oneshot"])
    }
}
