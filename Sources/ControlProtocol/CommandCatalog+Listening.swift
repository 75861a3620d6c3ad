import PlaybackModel

/// The commands for long listening (podcasts and audiobooks): chapters, the sleep timer and
/// the bookmarks every long item keeps.
extension CommandCatalog {
    /// How far into a chapter `previousChapter` restarts it rather than going back one.
    public static let chapterRestartThreshold = 3.0
    /// The longest sleep timer, seconds (24 h).
    public static let longestSleepTimer = 86_400.0

    static let chapterNavigation: [CommandSpec] = [
        CommandSpec(
            .nextChapter,
            "Go to the start of the next chapter, sample-accurately; from the last one, to the next item.",
            remote: true, replies: .position, needsChapters: true,
            verbs: [
                CLIVerb("chapter-next", "Go to the next chapter.", examples: ["chapter next"])
            ]
        ) { _ in .player(.nextChapter) },
        CommandSpec(
            .previousChapter,
            "Restart the chapter when more than 3 s into it, else go to the start of the previous one.",
            remote: true, replies: .position, needsChapters: true,
            verbs: [
                CLIVerb(
                    "chapter-previous", aliases: ["chapter-prev"], "Restart the chapter or go to the previous one.",
                    examples: ["chapter previous"])
            ]
        ) { _ in .player(.previousChapter) },
        CommandSpec(
            .chapters, "List the current item's chapters: each one's start and end (seconds) and title.",
            remote: false, replies: .chapters,
            verbs: [
                CLIVerb(
                    "chapter-list", aliases: ["chapters"], "List the chapters of the item playing.",
                    examples: ["chapter list", "--json chapters"])
            ]
        ) { _ in .player(.chapters) },
    ]

    static let sleep: [CommandSpec] = [
        CommandSpec(
            .setSleepTimer,
            "Pause after a number of seconds, or at the end of the item or chapter, fading out over the last seconds; replaces a timer already set.",
            remote: false,
            arguments: [
                ArgumentSpec("seconds", .number, "Seconds from now, > 0 and at most 86400 (24 h)."),
                ArgumentSpec(
                    "at", .string,
                    "\"endOfItem\" or \"endOfChapter\" (the item must have chapters); instead of seconds."
                ),
            ],
            verbs: [
                CLIVerb(
                    "sleep", "Pause after a time (30m, 45s, 1h30m, 90) or at end-of-item or end-of-chapter.",
                    positionals: [CLIPositional("seconds", "WHEN", .sleepTimer)],
                    examples: ["sleep 30m", "sleep 45s", "sleep 1h15m", "sleep end-of-item", "sleep end-of-chapter"])
            ]
        ) { args throws(RequestError) in
            let seconds = try args.number("seconds", in: 0...longestSleepTimer)
            if seconds == 0 { throw RequestError("'seconds' must be greater than 0, got 0") }
            let boundary = try args.choice("at", SleepTimer.Boundary.self)
            switch try args.oneOf(
                ("seconds", seconds.map(SleepRequest.seconds)), or: ("at", boundary.map(SleepRequest.boundary)))
            {
            case .first(let request), .second(let request): return .player(.setSleepTimer(request))
            }
        },
        CommandSpec(
            .cancelSleepTimer, "Cancel the sleep timer (and a fade it has begun); nothing happens without one.",
            remote: false,
            verbs: [CLIVerb("sleep-off", "Cancel the sleep timer.", examples: ["sleep off"])]
        ) { _ in .player(.cancelSleepTimer) },
    ]

    static let looping: [CommandSpec] = [
        CommandSpec(
            .setLoopRange,
            "Loop a range of the current item seamlessly and sample-exactly: count passes in all, the one that reaches its end included (0: endlessly), then play on past end.",
            remote: false,
            arguments: [
                ArgumentSpec("start", .number, required: true, "Seconds into the item, >= 0."),
                ArgumentSpec(
                    "end", .number, required: true,
                    "Seconds into the item, at least \(JSONValue.format(LoopRange.minimumSeconds)) after start, at most its duration."
                ),
                ArgumentSpec("count", .number, "Passes in all, 1 - \(LoopRange.maximumCount); 0 or absent: endlessly."),
            ],
            verbs: [
                CLIVerb(
                    "loop", "Loop from A to B (seconds, M:SS or H:MM:SS), N passes in all (default: endlessly).",
                    positionals: [
                        CLIPositional("start", "A", .position), CLIPositional("end", "B", .position),
                        CLIPositional("count", "N", .count, optional: true),
                    ],
                    examples: ["loop 1:02 1:09.5", "loop 62 69.5 3"])
            ]
        ) { args throws(RequestError) in
            let start = try args.nonNegativeNumber("start")!
            let end = try args.nonNegativeNumber("end")!
            guard end - start >= LoopRange.minimumSeconds else {
                throw RequestError(
                    "'end' must be at least \(JSONValue.format(LoopRange.minimumSeconds)) s after 'start', got \(JSONValue.format(start)) - \(JSONValue.format(end))"
                )
            }
            let count = try args.index("count") ?? 0
            guard count <= LoopRange.maximumCount else {
                throw RequestError("'count' must be 0 to \(LoopRange.maximumCount), got \(count)")
            }
            return .player(.setLoopRange(start: start, end: end, count: count))
        },
        CommandSpec(
            .clearLoopRange, "End the A-B loop: playback goes on past its end.", remote: false,
            verbs: [CLIVerb("loop-off", "End the A-B loop.", examples: ["loop off"])]
        ) { _ in .player(.clearLoopRange) },
    ]

    static let bookmarking: [CommandSpec] = [
        CommandSpec(
            .bookmarks,
            "List the bookmarks of long items, newest first: each file's path, title, position, duration and when it was saved.",
            remote: false, replies: .bookmarks,
            verbs: [CLIVerb("bookmarks", "List the bookmarks.", examples: ["bookmarks", "--json bookmarks"])]
        ) { _ in .player(.bookmarks) },
        CommandSpec(
            .forgetBookmarks, "Forget the bookmark of one file (it plays from its start next time), or all of them.",
            remote: false,
            arguments: [
                ArgumentSpec("path", .string, "The file's absolute path."),
                ArgumentSpec("all", .boolean, "true to forget every bookmark; instead of path."),
            ],
            verbs: [
                CLIVerb(
                    "bookmarks-forget", "Forget the bookmark of FILE, or every one with --all.",
                    positionals: [CLIPositional("path", "FILE", .pathOrAll, optional: true)], flags: ["all"],
                    examples: ["bookmarks forget book.m4b", "bookmarks forget --all"])
            ]
        ) { args throws(RequestError) in
            let all = try args.bool("all")
            if all == false { throw RequestError("'all' must be true when given") }
            switch try args.oneOf(("path", try args.string("path")), or: ("all", all.map { _ in "" })) {
            case .first(let path):
                guard path.hasPrefix(bytes: "/") else {
                    throw RequestError("'path' must be an absolute path, got '\(path)'")
                }
                return .player(.forgetBookmarks(path: path))
            case .second: return .player(.forgetBookmarks(path: nil))
            }
        },
    ]
}
