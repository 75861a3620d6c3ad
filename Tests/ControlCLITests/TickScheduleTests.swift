import ControlCLI
import ControlProtocol
import PlaybackModel
import Testing

@Suite struct TickScheduleTests {
    @Test("the next tick is when the extrapolated position crosses its next whole second")
    func boundary() throws {
        let snapshot = Snapshots.nowPlaying(elapsed: 83.4, timestamp: 1000)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1000)) - 1000.6) < 1e-9)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1000.6)) - 1001.6) < 1e-9)
        #expect(abs(try #require(TickSchedule.nextBoundary(snapshot, after: 1003.1)) - 1003.6) < 1e-9)
    }

    @Test("no tick while paused, stopped, not yet advancing, or past the last whole second")
    func noTick() {
        func snapshot(_ state: PlaybackState, rate: Double, elapsed: Double = 10) -> NowPlaying {
            let item = QueueItem(
                id: 1, path: "/t.mp3",
                metadata: TrackMetadata(title: "t", duration: 19.8, sampleRate: 44_100, channels: 2))
            return NowPlaying(
                state: state, item: item, elapsed: elapsed, rate: rate, timestamp: 0, queueIndex: 0, queueCount: 1)
        }
        #expect(TickSchedule.nextBoundary(snapshot(.paused, rate: 0), after: 1) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 0), after: 1) == nil)
        #expect(TickSchedule.nextBoundary(Snapshots.stoppedNowPlaying, after: 1) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 19.5), after: 0) == nil)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 18.5), after: 0) == 0.5)
        #expect(TickSchedule.nextBoundary(snapshot(.playing, rate: 1, elapsed: 18.5), after: 0.6) == nil)
    }
}

@Suite struct HumanStatusTests {
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
    func layout() {
        let text = HumanOutput.status(Snapshots.nowPlaying(), commands: Self.commands, now: 1000)
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

    @Test("the play modes are shown when on; a queue page is numbered from its offset and says what is left")
    func modesAndPages() throws {
        var modes = Snapshots.nowPlaying()
        modes.repeatMode = .one
        modes.shuffleMode = .items
        #expect(HumanOutput.status(modes, now: 1000).contains("(2/12)  repeat one  shuffle\n"))
        #expect(!HumanOutput.status(Snapshots.nowPlaying(), now: 1000).contains("repeat"))
        var routed = Snapshots.nowPlaying()
        routed.state = .paused
        routed.routeChange = RouteChange(reason: .oldDeviceUnavailable, device: "Headphones", timestamp: 990)
        #expect(HumanOutput.status(routed, now: 1000).hasSuffix("\nroute: Headphones went away\n"))
        routed.item = nil
        #expect(HumanOutput.status(routed, now: 1000) == "[paused]\nroute: Headphones went away\n")
        #expect(!HumanOutput.status(Snapshots.nowPlaying(), now: 1000).contains("route"))
        func item(_ title: String) -> JSONValue {
            let metadata = TrackMetadata(title: title, artist: "A", duration: 61, sampleRate: 44_100, channels: 2)
            return QueueItem(id: 1, path: "/\(title).mp3", metadata: metadata).json
        }
        let page = JSONValue.object([
            ("currentIndex", .number(1_000)), ("count", .number(1_500)), ("offset", .number(999)),
            ("items", .array([item("x"), item("y")])),
        ])
        #expect(
            try HumanOutput.render(verb: "queue", reply: page, now: 0)
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
