import PlaybackModel

/// The music library's commands: queries, the scan, its failures and ratings (docs/library.md).
extension CommandCatalog {
    /// The arguments of a query, as `libraryQuery` takes them and `enqueue`'s `libraryQuery`
    /// object holds them.
    static let queryArguments: [ArgumentSpec] = [
        ArgumentSpec(
            "entity", .string,
            "What to list: \(LibraryQuery.Entity.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")); default \"songs\"."
        ),
        ArgumentSpec(
            "filters", .objectList,
            "Conditions every result meets, each `{\"field\", \"op\", \"value\"}` (with `\"not\": true`, one it does not meet; a song without the field then meets it): op \"equalTo\" (the default), \"contains\" or \"startsWith\" for text (case and accents folded; any value of a multi-valued tag) or \"matches\" (a Perl-compatible regular expression on the value as tagged, case-insensitive), \"equalTo\", \"atLeast\" or \"atMost\" for numbers. Fields: \(LibraryField.all.map(\.name).joined(separator: ", "))."
        ),
        ArgumentSpec(
            "exclude", .objectList,
            "Groups of conditions no result meets all of, each `{\"filters\": [...]}` (filters as above): MPD's `(!((A) AND (B)))`."
        ),
        ArgumentSpec(
            "text", .string,
            "Words that must each begin a word of the title, artist, album, album artist or composer (folded)."),
        ArgumentSpec(
            "sort", .stringList,
            "Field names to sort by, `-` first for descending; songs by any field, albums by album, albumArtist, year, songCount, duration or dateAdded, names by name, songCount or albumCount."
        ),
        ArgumentSpec("offset", .number, "Results to pass over; default 0."),
        ArgumentSpec("limit", .number, "Results at most, 1 to 1000; default 1000."),
    ]

    static let library: [CommandSpec] = [
        CommandSpec(
            .libraryQuery,
            "Ask the music library for songs, albums, artists, album artists, genres or composers (MPMediaQuery).",
            remote: false, replies: .library, arguments: queryArguments,
            verbs: [
                CLIVerb(
                    "find",
                    "List the songs whose FIELD is VALUE (FIELD~VALUE: contains); --play, --next or --add queues them.",
                    positionals: [CLIPositional("filters", "FIELD=VALUE", .filters, variadic: true)],
                    flags: ["play", "next", "add"],
                    examples: ["find artist=beyonce", "find album='OK Computer' --play", "find genre~jazz --add"]),
                CLIVerb(
                    "search", "List the songs matching WORDS (the start of words of title, artist, album, composer).",
                    positionals: [CLIPositional("text", "WORDS", .text, variadic: true)],
                    flags: ["play", "next", "add"],
                    examples: ["search sigur ros", "search ok comp --play"]),
                CLIVerb(
                    "list",
                    "List albums, artists, albumArtists, genres or composers, optionally of songs with FIELD=VALUE.",
                    positionals: [
                        CLIPositional(
                            "entity", "WHAT",
                            .choice(LibraryQuery.Entity.allCases.map(\.rawValue).filter { $0 != "songs" })),
                        CLIPositional("filters", "FIELD=VALUE", .filters, optional: true, variadic: true),
                    ],
                    examples: ["list albums", "list albums artist=radiohead", "list genres"]),
            ]
        ) { args throws(RequestError) in .library(.query(try LibraryQuery(members: args.values))) },
        CommandSpec(
            .libraryUpdate,
            "Scan the library for what changed (new, changed, moved and removed files), on a thread of its own; the reply comes at once and progress is pushed (`library`).",
            remote: false,
            arguments: [
                ArgumentSpec("path", .string, "Only this folder or file inside the library."),
                ArgumentSpec("full", .boolean, "Read every file's tags again, changed or not."),
            ],
            verbs: [
                CLIVerb(
                    "library-update",
                    "Scan the library for changes (--full: read every tag again; --wait: until done).",
                    positionals: [CLIPositional("path", "PATH", .path, optional: true)], flags: ["full", "wait"],
                    examples: ["library update", "library update --wait", "library update ~/Music/New --full"])
            ]
        ) { args throws(RequestError) in
            .library(.update(path: try args.string("path"), full: try args.bool("full") ?? false))
        },
        CommandSpec(
            .libraryAnalyze,
            "Measure the loudness of the library's songs that have no measure of their file as it is (docs/sound.md), at idle priority; the reply comes once the songs are listed, and progress is pushed (`library`: `measured`, `toMeasure`). Refused while `loudness-analysis` is off.",
            remote: false,
            arguments: [ArgumentSpec("full", .boolean, "Measure every song again, measured or not.")],
            verbs: [
                CLIVerb(
                    "library-analyze",
                    "Measure the songs' loudness now (--full: every song again; --wait: until done).",
                    flags: ["full", "wait"], examples: ["library analyze --wait", "library analyze --full"])
            ]
        ) { args throws(RequestError) in .library(.analyze(full: try args.bool("full") ?? false)) },
        CommandSpec(
            .libraryStatus, "Where the library stands: scanning or idle, its counts, its folders.", remote: false,
            replies: .libraryStatus,
            verbs: [CLIVerb("library-status", "Show the library's counts and state.", examples: ["library status"])]
        ) { _ in .library(.status) },
        CommandSpec(
            .libraryFailures, "A page of the files the library could not read, each with the reason.", remote: false,
            replies: .libraryFailures,
            arguments: [
                ArgumentSpec("offset", .number, "Failures to pass over; default 0."),
                ArgumentSpec("limit", .number, "Failures at most, 1 to 1000; default 1000."),
            ],
            verbs: [
                CLIVerb(
                    "library-failures", "List the files the library could not read.", examples: ["library failures"])
            ]
        ) { args throws(RequestError) in
            .library(
                .failures(
                    offset: try args.index("offset") ?? 0,
                    limit: Int(try args.number("limit", in: 1...Double(LibraryQuery.maximumLimit)) ?? 1000)))
        },
        CommandSpec(
            .setRating, "Rate a library song 0 (none) to 5: the song whose id is `song`, or the item playing.",
            remote: false,
            arguments: [
                ArgumentSpec("rating", .number, required: true, "0 to 5, whole."),
                ArgumentSpec(
                    "song", .string,
                    "The song's library id (`id` names the request, as in every command); default the item playing."),
            ],
            verbs: [
                CLIVerb(
                    "rating", "Rate the song playing, 0 (none) to 5.",
                    positionals: [CLIPositional("rating", "STARS", .number)], examples: ["rating 5", "rating 0"])
            ]
        ) { args throws(RequestError) in
            guard let rating = try args.number("rating", in: 0...5), rating == rating.rounded() else {
                throw RequestError("'rating' must be a whole number from 0 to 5")
            }
            return .library(.setRating(id: try args.string("song") ?? "", rating: Int(rating)))
        },
    ]
}
