import Testing

@testable import PlaybackDaemon

/// MPD's request lines, arguments and addresses, as MPD reads them.
@Suite struct MPDProtocolTests {
    @Test(
        "lines: words, quoted arguments with escapes, tabs",
        arguments: [
            ("ping", "ping", [String]()),
            ("add \"Pink Floyd/The Wall\"", "add", ["Pink Floyd/The Wall"]),
            (#"find artist "say \"hi\" \\ now""#, "find", ["artist", #"say "hi" \ now"#]),
            ("seek\t1  2.5", "seek", ["1", "2.5"]),
            ("add \"\"", "add", [""]),
        ])
    func lines(_ text: String, _ name: String, _ arguments: [String]) throws {
        #expect(try MPDRequestLine.parse(text).get() == MPDRequestLine(name: name, arguments: arguments))
    }

    @Test(
        "malformed lines are argument errors; a command's name is a plain word",
        arguments: ["add \"open", "add \"a\"b", "", "   ", "add \"a\\", "\"play\"", "pl\"ay\" 1", "play(1)"])
    func malformed(_ text: String) {
        guard case .failure(let error) = MPDRequestLine.parse(text) else {
            Issue.record("'\(text)' was read")
            return
        }
        #expect(error.code == .argument || error.code == .unknown)
    }

    @Test("ranges: one position, START:END clipped, START: to the end; out of the queue refused")
    func ranges() throws {
        #expect(try MPDArgument.range("2", count: 5).get() == 2..<3)
        #expect(try MPDArgument.range("1:3", count: 5).get() == 1..<3)
        #expect(try MPDArgument.range("1:", count: 5).get() == 1..<5)
        #expect(try MPDArgument.range("3:99", count: 5).get() == 3..<5)
        for bad in ["5", "-1", "x", "3:1", "1:2:3", "7:9"] {
            #expect(throws: MPDError.self) { try MPDArgument.range(bad, count: 5).get() }
        }
    }

    @Test("positions (protocol 0.23): N, +N after the current item, -N before it; no current item refused")
    func positions() throws {
        // A queue of 10, the current item at 4.
        #expect(try MPDArgument.insertPosition("10", count: 10, current: 4).get() == 10)
        #expect(try MPDArgument.insertPosition("+0", count: 10, current: 4).get() == 5)
        #expect(try MPDArgument.insertPosition("+5", count: 10, current: 4).get() == 10)
        #expect(try MPDArgument.insertPosition("-0", count: 10, current: 4).get() == 4)
        #expect(try MPDArgument.insertPosition("-4", count: 10, current: 4).get() == 0)
        for bad in ["11", "+6", "-5", "x", "+x", "-"] {
            #expect(throws: MPDError.self) { try MPDArgument.insertPosition(bad, count: 10, current: 4).get() }
        }
        #expect(throws: MPDError(.playerSync, "No current song")) {
            try MPDArgument.insertPosition("+0", count: 10, current: nil).get()
        }
        // Moving 1..<3 (two items): the current item at 4 is at 2 once they are out.
        #expect(try MPDArgument.moveDestination("+0", moving: 1..<3, count: 10, current: 4).get() == 3)
        #expect(try MPDArgument.moveDestination("-0", moving: 1..<3, count: 10, current: 4).get() == 2)
        #expect(try MPDArgument.moveDestination("8", moving: 1..<3, count: 10, current: 4).get() == 8)
        #expect(throws: MPDError.self) {
            try MPDArgument.moveDestination("9", moving: 1..<3, count: 10, current: 4).get()
        }
        #expect(throws: MPDError(.argument, "Cannot move current song relative to itself")) {
            try MPDArgument.moveDestination("+1", moving: 3..<5, count: 10, current: 4).get()
        }
    }

    @Test("time stamps as MPD reads them: seconds, or ISO 8601 in UTC to the second, the day or the month")
    func timeStamps() {
        #expect(MPDLibraryQuery.timeStamp("1000000000") == 1_000_000_000)
        #expect(MPDLibraryQuery.timeStamp("2001-09-09T01:46:40Z") == 1_000_000_000)
        #expect(MPDLibraryQuery.timeStamp("2001-09-09") == 999_993_600)
        #expect(MPDLibraryQuery.timeStamp("2001-09") == 999_302_400)
        #expect(MPDLibraryQuery.timeStamp("2001-09-09T01:46:40") == 1_000_000_000, "UTC without its Z")
        for bad in [
            "", "soon", "2001-13", "2001-09-09T01:46", "2001-09-09T01:46:40Zx", "2001-09T01:00:00Z", "-5", "2001-09-32",
        ] {
            #expect(MPDLibraryQuery.timeStamp(bad) == nil, "\(bad)")
        }
    }

    @Test("addresses: host:port, [IPv6]:port, absolute paths; the rest refused")
    func addresses() throws {
        #expect(try MPDListenAddress.parse("127.0.0.1:6600").get() == .tcp(host: "127.0.0.1", port: 6600))
        #expect(try MPDListenAddress.parse("[::1]:0").get() == .tcp(host: "::1", port: 0))
        #expect(try MPDListenAddress.parse("/run/user/1000/mpd.sock").get() == .unix(path: "/run/user/1000/mpd.sock"))
        for bad in ["6600", "localhost", ":6600", "host:70000", "relative/path"] {
            #expect(throws: MPDListenAddress.Problem.self) { try MPDListenAddress.parse(bad).get() }
        }
    }

    @Test("seconds as MPD writes them, three decimals")
    func decimals() {
        #expect(MPDSongFormat.decimal(0.623) == "0.623")
        #expect(MPDSongFormat.decimal(215) == "215.000")
        #expect(MPDSongFormat.decimal(1.0005) == "1.001")
        #expect(MPDSongFormat.decimal(0.05) == "0.050")
    }
}
