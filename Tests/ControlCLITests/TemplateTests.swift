import ControlCLI
import ControlProtocol
import PlaybackModel
import Testing

/// A snapshot whose tags hold everything that breaks hand-built bar output: quotes, a
/// backslash, `&`, `<`, a newline, emoji (one a ZWJ sequence), a combining accent, and
/// right-to-left text.
enum Snapshots {
    static let title = "Say \"Hi\" & <Bye> \\ 🎵\nnow"
    static let artist = "Zoe\u{0301} & שלום"
    static let album = "👩‍👩‍👧 <b>"

    /// The hostile snapshot, typed: the daemon's own value, so the tests read what it writes.
    static func nowPlaying(elapsed: Double = 83.4, timestamp: Double = 1000) -> NowPlaying {
        let metadata = TrackMetadata(
            title: title, artist: artist, album: album, duration: 3725.5, sampleRate: 44_100, channels: 2)
        return NowPlaying(
            state: .playing, item: QueueItem(id: 7, path: "/music/a b.mp3", metadata: metadata), elapsed: elapsed,
            rate: 1, timestamp: timestamp, queueIndex: 1, queueCount: 12)
    }

    /// The hostile snapshot as the wire carries it.
    static func playing(elapsed: Double = 83.4, timestamp: Double = 1000) -> JSONValue {
        nowPlaying(elapsed: elapsed, timestamp: timestamp).json
    }

    static let stoppedNowPlaying = NowPlaying(
        state: .stopped, item: nil, elapsed: 0, rate: 0, timestamp: 0, queueIndex: nil, queueCount: 0)
    static let stopped = stoppedNowPlaying.json

    static func view(_ snapshot: JSONValue = playing(), at now: Double = 1000) throws -> SnapshotView {
        try SnapshotView(snapshot, now: now)
    }
}

@Suite struct TemplateTests {
    private func render(_ source: String, _ view: SnapshotView? = nil) throws -> String {
        try Template(source).line(view ?? Snapshots.view())
    }

    @Test(
        "fields and filters render the snapshot",
        arguments: [
            ("{{title}}", "Say \"Hi\" & <Bye> \\ 🎵 now"),
            ("{{artist}} / {{album}}", "Zoe\u{0301} & שלום / 👩‍👩‍👧 <b>"),
            ("{{state}} {{state|icon}} {{state|upper}}", "playing ▶ PLAYING"),
            ("{{elapsed}} {{elapsed|time}} {{duration|time}} {{remaining|time}}", "83 1:23 1:02:05 1:00:42"),
            ("{{percent}}% {{queuePosition}}/{{queueCount}} #{{queueIndex}} rate {{rate}}", "2% 2/12 #1 rate 1"),
            ("{{artist|lower}}", "zoe\u{0301} & שלום"),
            ("{{title|truncate:6}}", "Say \"…"),
            ("{{album|truncate:2}}", "👩‍👩‍👧…"),
            ("{{artist|truncate:4}}", "Zoe\u{0301}…"),
            ("{{title|markup}}", "Say &quot;Hi&quot; &amp; &lt;Bye&gt; \\ 🎵 now"),
            ("{{title|json}}", #""Say \"Hi\" & <Bye> \\ 🎵 now""#),
            ("{{elapsed|json}} {{assetURL}}", "83.4 file:///music/a%20b.mp3"),
            ("{{ title | truncate: 3 | upper }}", "SA…"),
            ("{{artist|prefix:\"by \"|suffix:\" - \"}}x{{album|prefix:  on  }}", "by Zoe\u{0301} & שלום - xon👩‍👩‍👧 <b>"),
        ])
    func renders(_ source: String, _ expected: String) throws {
        #expect(try render(source) == expected)
    }

    @Test("the play modes print as words or, with icon, as glyphs (nothing when off)")
    func playModes() throws {
        func snapshot(_ repeatMode: String, _ shuffleMode: String) throws -> SnapshotView {
            try Snapshots.view(
                .object([
                    ("state", .string("paused")), ("repeatMode", .string(repeatMode)),
                    ("shuffleMode", .string(shuffleMode)),
                ]))
        }
        let source = "[{{repeatMode|icon}}{{shuffleMode|icon}}] {{repeatMode}}/{{shuffleMode}}"
        #expect(try render(source, snapshot("one", "items")) == "[🔂🔀] one/items")
        #expect(try render(source, snapshot("all", "off")) == "[🔁] all/off")
        #expect(try render(source, snapshot("off", "off")) == "[] off/off")
        #expect(throws: (any Error).self) { try Template("{{title|icon}}") }
    }

    @Test("missing values print as nothing, or the default")
    func missingValues() throws {
        let stopped = try Snapshots.view(Snapshots.stopped)
        #expect(try render("[{{title}}|{{artist|suffix:\" - \"}}|{{elapsed|time}}|{{percent}}]", stopped) == "[|||]")
        #expect(
            try render("{{title|default:Nothing playing}} {{duration|time|default:--:--}}", stopped)
                == "Nothing playing --:--")
        #expect(try render("{{artist|json}} {{state|icon}}", stopped) == "null ⏹")
    }

    @Test("the position is extrapolated to the moment of printing and clamped to the item")
    func extrapolation() throws {
        #expect(try render("{{elapsed|time}}", Snapshots.view(at: 1001.7)) == "1:25")
        #expect(try render("{{elapsed|time}}", Snapshots.view(at: 999)) == "1:23", "never before the timestamp")
        #expect(try render("{{remaining}}", Snapshots.view(at: 10_000)) == "0")
    }

    @Test(
        "errors name the problem and its column",
        arguments: [
            ("x {{titel}}", "unknown field 'titel'", 5),
            ("{{title|uper}}", "unknown filter 'uper'", 9),
            ("{{title|time}}", "filter 'time' does not apply to text ('title')", 9),
            ("{{elapsed|icon}}", "filter 'icon' does not apply to seconds ('elapsed')", 11),
            ("{{title|truncate}}", "filter 'truncate' needs a count", 17),
            ("{{title|truncate:0}}", "filter 'truncate' needs a positive whole count, not '0'", 18),
            ("{{title|upper:x}}", "filter 'upper' takes no argument", 14),
            ("{{title|json|upper}}", "nothing may follow 'json'", 14),
            ("ab {{title", "'{{' is not closed with '}}'", 4),
            ("{{title|default:\"x}}", "quoted argument is not closed", 17),
            ("{{}}", "expected a field name after '{{'", 3),
            ("{{title x}}", "expected '|' or '}}'", 9),
            ("🎵 {{nope}}", "unknown field 'nope'", 5),
        ])
    func errors(_ source: String, _ message: String, _ column: Int) {
        #expect {
            try Template(source)
        } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.message.hasPrefix(message) && error.column == column
                && error.description.hasSuffix("\n  " + String(repeating: " ", count: column - 1) + "^")
        }
    }

    @Test("only elapsed, remaining and percent make a template follow the position")
    func followsPosition() throws {
        #expect(try Template("{{elapsed|time}}").followsPosition)
        #expect(try Template("{{remaining}}").followsPosition)
        #expect(try Template("{{percent}}%").followsPosition)
        #expect(try !Template("{{artist}} - {{title}} {{duration|time}} {{state|icon}}").followsPosition)
    }

    @Test("--max-width counts characters over the whole line and never cuts an escaped value")
    func maxWidth() throws {
        let template = try Template("♪ {{artist}} - {{title}}")
        let view = try Snapshots.view()
        #expect(template.line(view, maxWidth: 8) == "♪ Zoe\u{0301} &…")
        #expect(template.line(view, maxWidth: 200) == template.line(view))
        let escaped = try Template("ab {{title|markup}}")
        #expect(escaped.line(view, maxWidth: 10) == "ab …")
    }
}

/// Every example in `--help` and the man page parses.
@Suite struct HelpExampleTests {
    @Test("each verb's examples parse to that verb's request")
    func examplesParse() throws {
        for (_, verb) in VerbTable.all {
            for example in verb.examples {
                let invocation = try Invocation.parse(ShellWords.split(example), cwd: "/")
                guard case .request(let request) = invocation.action else {
                    Issue.record("'\(example)' is not a request")
                    continue
                }
                #expect(request.verb == verb.name, "'\(example)' runs \(request.verb)")
            }
        }
    }
}
