import ControlCLI
import ControlProtocol
import PlaybackModel
import Testing

/// `playbackctl`'s human output, from typed outcomes decoded as the CLI decodes replies.
@Suite struct HumanOutputTests {
    static let commands = JSONValue.object([
        ("status", .string("success")),
        (
            "commands",
            .array([
                .object([
                    ("command", .string("skipForward")), ("enabled", .bool(true)),
                    ("preferredIntervals", .array([.number(30)])),
                ]),
                .object([
                    ("command", .string("skipBackward")), ("enabled", .bool(true)),
                    ("preferredIntervals", .array([.number(15)])),
                ]),
            ])
        ),
    ])

    @Test("state, artist - title, album, time, queue position and skip intervals within 80 columns")
    func layout() throws {
        guard case .commands(let availability) = try CommandOutcome(json: Self.commands, kind: .commands) else {
            Issue.record("not a commands outcome")
            return
        }
        let text = HumanOutput.status(Snapshots.nowPlaying(), commands: availability, now: 1000)
        #expect(
            text == """
                [playing] Zoe\u{0301} & שלום - Say "Hi" & <Bye> \\ 🎵 now
                👩‍👩‍👧 <b>
                1:23 / 1:02:05  (2/12)  skip -15s/+30s

                """)
        var long = Snapshots.nowPlaying()
        long.item?.metadata.title = String(repeating: "長", count: 60)
        let lines = HumanOutput.status(long, now: 1000).split(separator: "\n")
        #expect(DisplayWidth.of(String(lines[0])) <= 80)
        #expect(lines[0].hasSuffix("長…"))
    }

    @Test("the chapter playing and the sleep timer each have a line; chapters and bookmarks list one per line")
    func listening() throws {
        var snapshot = Snapshots.nowPlaying()
        snapshot.chapter = CurrentChapter(number: 1, count: 12, title: "The Storm", start: 60, end: 300)
        snapshot.sleepTimer = .at(1000 + 29 * 60 + 59.2)
        let lines = HumanOutput.status(snapshot, now: 1000).split(separator: "\n")
        #expect(lines.contains("chapter 2/12: The Storm"), "\(lines)")
        #expect(lines.contains("sleep in 30:00"), "\(lines)")
        snapshot.loopRange = LoopRange(itemID: 1, start: 62, end: 69.5, count: 3, pass: 2)
        #expect(HumanOutput.status(snapshot, now: 1000).contains("loop 1:02 - 1:09, pass 2 of 3\n"))
        snapshot.sleepTimer = .endOfChapter
        let boundary = HumanOutput.status(snapshot, now: 1000)
        #expect(boundary.contains("sleep at the end of the chapter (in "), "\(boundary)")
        let chapters = [Chapter(start: 0, end: 65, title: "One"), Chapter(start: 65, end: 3700, title: "Two")]
        #expect(HumanOutput.render(.chapters(chapters)) == "1. 0:00  One\n2. 1:05  Two\n")
        #expect(HumanOutput.render(.chapters([])) == "(the item has no chapters)\n")
        let bookmark = Bookmark(path: "/b/book.m4b", title: "Book", position: 3725, duration: 36_000, saved: 0)
        #expect(HumanOutput.render(.bookmarks([bookmark])).hasPrefix("1:02:05 / 10:00:00  Book  ("))
        #expect(HumanOutput.render(.bookmarks([])) == "(no bookmarks)\n")
    }

    @Test(
        "phrase mode has a line: the phrase, the repeat and the learner's turn; phrases list one per line with hundredths"
    )
    func phrases() {
        var snapshot = Snapshots.nowPlaying()
        snapshot.phraseMode = PhraseMode(isEnabled: true, repeats: 3)
        #expect(HumanOutput.status(snapshot, now: 1000).contains("phrase mode, 3x\n"))
        snapshot.phrase = CurrentPhrase(number: 4, count: 12, start: 10, end: 12.5, repetition: 1, inGap: true)
        #expect(HumanOutput.status(snapshot, now: 1000).contains("phrase 5/12, repeat 2 of 3, your turn\n"))
        let list = PhraseList(
            phrases: [Phrase(start: 0.45, end: 2.26), Phrase(start: 62.25, end: 63.1)], isComplete: true)
        #expect(
            HumanOutput.render(.phrases(list)) == "1. 0:00.45 - 0:02.26  (1.81 s)\n2. 1:02.25 - 1:03.10  (0.85 s)\n")
        #expect(
            HumanOutput.render(.phrases(PhraseList(phrases: [], isComplete: true)))
                == "(no phrases: the item is silent)\n")
        #expect(
            HumanOutput.render(.phrases(PhraseList(phrases: [], isComplete: false))) == "(analysing: more to come)\n")
    }

    @Test("the play modes are shown when on; a queue page is numbered from its offset and says what is left")
    func modesAndPages() throws {
        var modes = Snapshots.nowPlaying()
        modes.repeatMode = .one
        modes.shuffleMode = .items
        #expect(HumanOutput.status(modes, now: 1000).contains("(2/12)  repeat one  shuffle\n"))
        modes.crossfade = Crossfade(seconds: 5)
        #expect(HumanOutput.status(modes, now: 1000).contains("  shuffle  crossfade 5 s (albums)\n"))
        modes.crossfade.mode = .off
        #expect(!HumanOutput.status(modes, now: 1000).contains("crossfade"))
        #expect(!HumanOutput.status(Snapshots.nowPlaying(), now: 1000).contains("repeat"))
        var off = Snapshots.nowPlaying()
        off.outputEnabled = false
        #expect(HumanOutput.status(off, now: 1000).hasSuffix("\noutput off (playbackctl output-on)\n"))
        #expect(!HumanOutput.status(Snapshots.nowPlaying(), now: 1000).contains("output"))
        var routed = Snapshots.nowPlaying()
        routed.state = .paused
        routed.routeChange = RouteChange(reason: .oldDeviceUnavailable, device: "Headphones", timestamp: 990)
        #expect(HumanOutput.status(routed, now: 1000).hasSuffix("\nroute: Headphones went away\n"))
        routed.item = nil
        #expect(HumanOutput.status(routed, now: 1000) == "[paused]\nroute: Headphones went away\n")
        #expect(!HumanOutput.status(Snapshots.nowPlaying(), now: 1000).contains("route"))
        var interrupted = Snapshots.nowPlaying()
        interrupted.state = .interrupted
        interrupted.deviceError = "cannot open audio device 'hw:1': snd_pcm_open: No such file or directory"
        #expect(HumanOutput.status(interrupted, now: 1000).hasSuffix("\n\(interrupted.deviceError!)\n"))
        #expect(try NowPlaying(json: interrupted.json) == interrupted, "deviceError crosses the wire")
        func item(_ title: String) -> JSONValue {
            let metadata = TrackMetadata(title: title, artist: "A", duration: 61, sampleRate: 44_100, channels: 2)
            return QueueItem(id: 1, path: "/\(title).mp3", metadata: metadata).json
        }
        let page = JSONValue.object([
            ("currentIndex", .number(1_000)), ("count", .number(1_500)), ("offset", .number(999)),
            ("repeatMode", .string("off")), ("shuffleMode", .string("off")), ("items", .array([item("x"), item("y")])),
        ])
        #expect(
            HumanOutput.render(try CommandOutcome(json: page, kind: .queuePage))
                == " 1000. A - x (1:01)\n>1001. A - y (1:01)\n(499 more; playbackctl --json queue pages with offset and limit)\n"
        )
    }

    @Test("colour only when asked: the state tag is coloured, nothing else")
    func colour() {
        let text = HumanOutput.status(Snapshots.nowPlaying(), now: 1000, style: TerminalStyle(isColored: true))
        #expect(text.hasPrefix("\u{1B}[32m[playing]\u{1B}[0m Zo"))
        #expect(text.filter { $0 == "\u{1B}" }.count == 2)
        #expect(!TerminalStyle.standardOutput(environment: ["NO_COLOR": "1", "TERM": "xterm"]).isColored)
    }
}
