import ControlCLI
import ControlProtocol
import Testing

@Suite struct InvocationTests {
    private func request(_ arguments: [String]) throws -> String {
        let invocation = try Invocation.parse(arguments, cwd: "/nonexistent-dir")
        guard case .request(let request) = invocation.action else { return "not a request" }
        return request.json.serialized
    }

    @Test(
        "verbs and aliases become the catalog's requests",
        arguments: [
            (["play"], #"{"command":"play"}"#),
            (["toggle"], #"{"command":"togglePlayPause"}"#),
            (["prev"], #"{"command":"previousTrack"}"#),
            (["skip-forward"], #"{"command":"skipForward"}"#),
            (["skip-backward", "30"], #"{"command":"skipBackward","interval":30}"#),
            (["seek", "1:02:03.5"], #"{"command":"changePlaybackPosition","position":3723.5}"#),
            (["seek", "+10"], #"{"command":"skipForward","interval":10}"#),
            (["seek", "-0:30"], #"{"command":"skipBackward","interval":30}"#),
            (
                ["enqueue", "/a.mp3", "b.mp3", "--replace"],
                #"{"command":"enqueue","replace":true,"items":["/a.mp3","/nonexistent-dir/b.mp3"]}"#
            ),
            (["disable", "nextTrack"], #"{"command":"setCommandEnabled","enabled":false,"name":"nextTrack"}"#),
            (["status"], #"{"command":"nowPlaying"}"#),
            (
                ["enqueue", "--", "--odd.mp3", "-x.mp3"],
                #"{"command":"enqueue","items":["/nonexistent-dir/--odd.mp3","/nonexistent-dir/-x.mp3"]}"#
            ),
            (
                ["enqueue", "--play", "--", "--replace"],
                #"{"command":"enqueue","play":true,"items":["/nonexistent-dir/--replace"]}"#
            ),
            (["chapter", "next"], #"{"command":"nextChapter"}"#),
            (["chapter", "prev"], #"{"command":"previousChapter"}"#),
            (["chapters"], #"{"command":"chapters"}"#),
            (["sleep", "30m"], #"{"command":"setSleepTimer","seconds":1800}"#),
            (["sleep", "1h15m"], #"{"command":"setSleepTimer","seconds":4500}"#),
            (["sleep", "45s"], #"{"command":"setSleepTimer","seconds":45}"#),
            (["sleep", "90"], #"{"command":"setSleepTimer","seconds":90}"#),
            (["sleep", "end-of-chapter"], #"{"command":"setSleepTimer","at":"endOfChapter"}"#),
            (["sleep", "off"], #"{"command":"cancelSleepTimer"}"#),
            (["loop", "1:02", "1:09.5", "3"], #"{"command":"setLoopRange","start":62,"end":69.5,"count":3}"#),
            (["loop", "2", "3.5"], #"{"command":"setLoopRange","start":2,"end":3.5}"#),
            (["loop", "off"], #"{"command":"clearLoopRange"}"#),
            (["bookmarks"], #"{"command":"bookmarks"}"#),
            (["bookmarks", "forget", "--all"], #"{"command":"forgetBookmarks","all":true}"#),
            (["bookmarks", "forget", "/b/book.m4b"], #"{"command":"forgetBookmarks","path":"/b/book.m4b"}"#),
            (
                ["enqueue-ids", "album-12", "7", "--play"],
                #"{"command":"enqueue","play":true,"libraryIDs":["album-12","7"]}"#
            ),
        ])
    func requests(_ arguments: [String], _ expected: String) throws {
        #expect(try request(arguments) == expected)
    }

    @Test(
        "bad command lines are usage errors",
        arguments: [
            ["dance"], ["seek"], ["seek", "soon"], ["seek", "1:60"], ["skip-forward", "-3"], ["play", "extra"],
            ["enqueue"], ["enqueue", "a.mp3", "--loud"], ["disable", "fly"], ["--socket"],
            ["--timeout", "0", "status"], ["--timeout", "-1", "status"], ["--timeout", "soon", "status"],
            ["--timeout", "nan", "status"], ["status", "--timeout"], ["sleep"], ["sleep", "soon"], ["sleep", "5x"],
            ["sleep", "m"], ["chapter", "sideways"], ["loop", "1"], ["loop", "1", "2", "0"], ["loop", "+1", "2"],
        ])
    func usageErrors(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try Invocation.parse(arguments, cwd: "/") }
    }

    @Test("global options anywhere; no verb means help")
    func globalOptions() throws {
        let invocation = try Invocation.parse(["status", "--json", "--socket", "/s"], cwd: "/")
        #expect(invocation.json)
        #expect(invocation.socket == "/s")
        #expect(try Invocation.parse([], cwd: "/").action == .help(verb: nil))
        #expect(try Invocation.parse(["seek", "--help"], cwd: "/").action == .help(verb: "seek"))
    }

    @Test("the reply timeout: 5 s by default, 60 s for enqueue (it probes every file), or --timeout")
    func replyTimeout() throws {
        #expect(try Invocation.parse(["status"], cwd: "/").replyTimeout(for: .nowPlaying) == 5)
        #expect(try Invocation.parse(["enqueue", "/a.mp3"], cwd: "/").replyTimeout(for: .enqueue) == 60)
        let given = try Invocation.parse(["toggle", "--timeout=0.25"], cwd: "/")
        #expect(given.replyTimeout(for: .togglePlayPause) == 0.25)
        #expect(
            try Invocation.parse(["--timeout", "90", "enqueue", "/a"], cwd: "/").replyTimeout(for: .enqueue) == 90)
    }
}

@Suite struct TimeTextTests {
    @Test("parse", arguments: [("90", 90.0), ("1:30", 90), ("1:02:03", 3723), ("0.25", 0.25), ("2:05.5", 125.5)])
    func parse(_ text: String, _ seconds: Double) {
        #expect(TimeText.parse(text) == seconds)
    }

    @Test("reject", arguments: ["", ":", "1:", "a", "1:2:3:4", "1:60", "-1", "1e3", "1.5:00"])
    func reject(_ text: String) {
        #expect(TimeText.parse(text) == nil)
    }

    @Test("format")
    func format() {
        #expect(TimeText.format(0) == "0:00")
        #expect(TimeText.format(59.9) == "0:59")
        #expect(TimeText.format(61) == "1:01")
        #expect(TimeText.format(3723) == "1:02:03")
        #expect(TimeText.format(-4) == "0:00")
        #expect(TimeText.format(.nan) == "0:00")
    }
}
