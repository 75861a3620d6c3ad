import PlaybackModel

/// The listening history's command (docs/history.md).
extension CommandCatalog {
    /// The most hearings one `listeningHistory` reply holds.
    public static let historyPageLimit = 1000
    /// Hearings in a reply when `limit` is not given.
    public static let historyPageDefault = 100

    static let history: [CommandSpec] = [
        CommandSpec(
            .listeningHistory,
            "A page of the listening history, newest first: every hearing of an item, how long it was heard and how it ended, and whether it counts as a listen (docs/history.md).",
            remote: false, replies: .listeningHistory,
            arguments: [
                ArgumentSpec("offset", .number, "Hearings to pass over; default 0."),
                ArgumentSpec("limit", .number, "Hearings at most, 1 to 1000; default 100."),
                ArgumentSpec(
                    "since", .number, "Only hearings that began at or after this time, seconds since the epoch."),
                ArgumentSpec("until", .number, "Only hearings that began before this time, seconds since the epoch."),
            ],
            verbs: [
                CLIVerb(
                    "history", "List what was heard, newest first; AGE (7d, 12h, 30m): only that recent.",
                    positionals: [CLIPositional("since", "AGE", .age, optional: true)],
                    examples: ["history", "history 7d", "--json history 1h"])
            ]
        ) { args throws(RequestError) in
            let since = try args.number("since", in: 0...ProtocolLimits.latestTime)
            let until = try args.number("until", in: 0...ProtocolLimits.latestTime)
            if let since, let until, until < since {
                throw RequestError(
                    "'until' must not be before 'since', got \(JSONValue.format(until)) < \(JSONValue.format(since))")
            }
            let limit = try args.number("limit", in: 1...Double(historyPageLimit)) ?? Double(historyPageDefault)
            return .listeningHistory(
                offset: try args.index("offset") ?? 0, limit: Int(limit), since: since, until: until)
        }
    ]
}
