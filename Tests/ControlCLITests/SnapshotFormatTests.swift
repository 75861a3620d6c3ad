import ControlCLI
import ControlProtocol
import Testing

struct NotARequest: Error {}

/// Golden output of every bar mode for the hostile snapshot; every JSON mode's line parses.
@Suite struct SnapshotFormatTests {
    private func options(_ arguments: [String]) throws -> OutputOptions {
        let invocation = try Invocation.parse(["watch"] + arguments, cwd: "/")
        guard case .request(let request) = invocation.action else { throw NotARequest() }
        return request.output
    }

    private func line(_ arguments: [String], _ snapshot: JSONValue = Snapshots.playing()) throws -> String {
        let output = try options(arguments)
        return output.format.line(try SnapshotView(snapshot, now: 1000), maxWidth: output.maxWidth)
    }

    @Test("--waybar: Pango-escaped text and tooltip, the state as alt and class, the percentage")
    func waybar() throws {
        let text = try line(["--waybar"])
        #expect(
            text
                == #"{"text":"Zoe\#u{0301} &amp; שלום - Say &quot;Hi&quot; &amp; &lt;Bye&gt; \\ 🎵 now","alt":"playing","tooltip":"Zoe\#u{0301} &amp; שלום - Say &quot;Hi&quot; &amp; &lt;Bye&gt; \\ 🎵 now\n👩‍👩‍👧 &lt;b&gt;\n1:02:05","class":"playing","percentage":2}"#
        )
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed["text"]?.stringValue?.contains("&lt;Bye&gt;") == true)
        let custom = try line([
            "--waybar", "--format", "<b>{{title|truncate:3}}</b> {{elapsed|time}}", "--tooltip", "{{album|markup}}",
        ])
        #expect(
            custom
                == #"{"text":"<b>Sa…</b> 1:23","alt":"playing","tooltip":"👩‍👩‍👧 &lt;b&gt;","class":"playing","percentage":2}"#
        )
        let stopped = try line(["--waybar"], Snapshots.stopped)
        #expect(stopped == #"{"text":"","alt":"stopped","tooltip":"","class":"stopped","percentage":0}"#)
    }

    @Test("--i3blocks: the text as it is, one plain line, cut to the width")
    func i3blocks() throws {
        let text = try line(["--i3blocks", "--max-width", "30"])
        #expect(text == "Zoe\u{0301} & שלום - Say \"Hi\" & <Bye>…")
        #expect(text.count == 30)
    }

    @Test("--polybar: plain text on one line, %{ in values doubled")
    func polybar() throws {
        var snapshot = Snapshots.playing()
        if case .object(var members) = snapshot {
            members[1] = ("title", .string("100%{F#f00} fake"))
            snapshot = .object(members)
        }
        #expect(
            try line(["--polybar", "--format", "%{F#0f0}{{title}}%{F-}"], snapshot) == "%{F#0f0}100%%{F#f00} fake%{F-}")
        #expect(try line(["--polybar"]) == "Zoe\u{0301} & שלום - Say \"Hi\" & <Bye> \\ 🎵 now")
    }

    @Test("--json: the snapshot exactly as pushed")
    func json() throws {
        let text = try line(["--json"])
        #expect(try JSONParser.parse(Array(text.utf8)) == Snapshots.playing())
    }

    @Test("offline lines in every mode")
    func offline() throws {
        #expect(try options(["--offline", "⏻ off"]).format.offlineLine("⏻ off") == "⏻ off")
        let waybar = try options(["--waybar"]).format.offlineLine("x\"y")
        #expect(try JSONParser.parse(Array(waybar.utf8))["class"]?.stringValue == "offline")
        #expect(try JSONParser.parse(Array(waybar.utf8))["text"]?.stringValue == "x\"y")
        #expect(try options(["--i3blocks"]).format.offlineLine("not\nrunning") == "not running")
        #expect(try options(["--json"]).format.offlineLine("") == #"{"state":"offline"}"#)
    }

    @Test("which formats tick: the human line and templates that show the position; never JSON")
    func ticking() throws {
        #expect(try options([]).format.followsPosition)
        #expect(try options(["--format", "{{elapsed|time}}"]).format.followsPosition)
        #expect(try !options(["--format", "{{title}}"]).format.followsPosition)
        #expect(try !options(["--waybar"]).format.followsPosition)
        #expect(try options(["--waybar", "--tooltip", "{{percent}}"]).format.followsPosition)
        #expect(try !options(["--i3blocks"]).format.followsPosition)
        #expect(try !options(["--json"]).format.followsPosition)
    }

    @Test(
        "conflicting or malformed options are usage errors",
        arguments: [
            ["--waybar", "--polybar"], ["--tooltip", "x"], ["--max-width", "0"], ["--max-width", "wide"],
            ["--format", "{{nope}}"], ["--waybar", "--tooltip", "{{title|time}}"], ["--json", "--waybar"],
            ["--format"],
        ])
    func conflicts(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try Invocation.parse(["watch"] + arguments, cwd: "/") }
    }

    @Test("verb options belong to their verbs")
    func verbOptions() throws {
        #expect(throws: UsageError.self) { try Invocation.parse(["play", "--format", "x"], cwd: "/") }
        #expect(throws: UsageError.self) { try Invocation.parse(["status", "--waybar"], cwd: "/") }
        #expect(throws: UsageError.self) { try Invocation.parse(["--format", "x", "status"], cwd: "/") }
        let status = try Invocation.parse(["status", "--format={{title}}", "--socket", "/s"], cwd: "/")
        #expect(status.socket == "/s")
        guard case .request(let request) = status.action, request.command == .nowPlaying else {
            Issue.record("not a status request")
            return
        }
        let output = request.output
        #expect(output.format == .template(try Template("{{title}}")))
    }
}
