import PlaybackModel

/// The commands for language learners: phrase mode (each phrase repeated with a gap to speak
/// in), moving by phrase, and the phrases found.
extension CommandCatalog {
    static let phrasing: [CommandSpec] = [
        CommandSpec(
            .setPhraseMode,
            "Phrase mode: each phrase of the item plays repeats times, each time followed by silence as long as the phrase times gapFactor plus gapExtra seconds; skipForward and skipBackward then move by phrase. Settings not given keep their values.",
            remote: false,
            arguments: [
                ArgumentSpec("enabled", .boolean, required: true, "true for phrase mode, false for plain playback."),
                ArgumentSpec(
                    "repeats", .number,
                    "Times each phrase plays, \(PhraseMode.repeatsRange.lowerBound) - \(PhraseMode.repeatsRange.upperBound) (first: 1)."
                ),
                ArgumentSpec(
                    "gapFactor", .number,
                    "The gap after a phrase in phrase lengths, \(JSONValue.format(PhraseMode.gapFactorRange.lowerBound)) - \(JSONValue.format(PhraseMode.gapFactorRange.upperBound)) (first: 1)."
                ),
                ArgumentSpec(
                    "gapExtra", .number,
                    "Seconds added to each gap, \(JSONValue.format(PhraseMode.gapExtraRange.lowerBound)) - \(JSONValue.format(PhraseMode.gapExtraRange.upperBound)) (first: 0)."
                ),
            ],
            verbs: [
                CLIVerb(
                    "phrase-on",
                    "Phrase mode on: each phrase N times (default 1), gaps of F phrase lengths plus S seconds.",
                    positionals: [
                        CLIPositional("repeats", "N", .count, optional: true),
                        CLIPositional("gapFactor", "F", .number, optional: true),
                        CLIPositional("gapExtra", "S", .seconds, optional: true),
                    ],
                    presets: [("enabled", .bool(true))], examples: ["phrase on", "phrase on 3", "phrase on 2 1.5 0.5"]),
                CLIVerb(
                    "phrase-off", "Phrase mode off: plain playback from where it is.",
                    presets: [("enabled", .bool(false))], examples: ["phrase off"]),
            ]
        ) { args throws(RequestError) in
            guard let enabled = try args.bool("enabled") else { throw RequestError("'enabled' must be a boolean") }
            let range = PhraseMode.repeatsRange
            let repeats = try args.number("repeats", in: Double(range.lowerBound)...Double(range.upperBound))
            if let repeats, repeats.rounded() != repeats {
                throw RequestError("'repeats' must be a whole number, got \(JSONValue.format(repeats))")
            }
            return .player(
                .setPhraseMode(
                    PhraseModeChange(
                        enabled: enabled, repeats: repeats.map { Int($0) },
                        gapFactor: try args.number("gapFactor", in: PhraseMode.gapFactorRange),
                        gapExtra: try args.number("gapExtra", in: PhraseMode.gapExtraRange))))
        },
        CommandSpec(
            .nextPhrase, "Go to the start of the next phrase (its first repeat); from the last one, to the next item.",
            remote: false, replies: .position,
            verbs: [CLIVerb("phrase-next", "Go to the next phrase.", examples: ["phrase next"])]
        ) { _ in .player(.nextPhrase) },
        CommandSpec(
            .previousPhrase, "Go to the start of the phrase before the one playing (from the first, its start).",
            remote: false, replies: .position,
            verbs: [
                CLIVerb(
                    "phrase-previous", aliases: ["phrase-prev"], "Go to the previous phrase.",
                    examples: ["phrase previous"])
            ]
        ) { _ in .player(.previousPhrase) },
        CommandSpec(
            .replayPhrase, "Play the phrase playing again from its start, with all its repeats.", remote: false,
            replies: .position,
            verbs: [
                CLIVerb(
                    "phrase-again", aliases: ["phrase-replay"], "Play the phrase again.", examples: ["phrase again"])
            ]
        ) { _ in .player(.replayPhrase) },
        CommandSpec(
            .phrases,
            "List the current item's phrases (start and end, seconds) and whether the analysis has finished; starts the analysis when it has not run.",
            remote: false, replies: .phrases,
            verbs: [
                CLIVerb(
                    "phrases", aliases: ["phrase-list"], "List the phrases of the item playing.",
                    examples: ["phrases", "--json phrases"])
            ]
        ) { _ in .player(.phrases) },
        CommandSpec(
            .analyzePhrases,
            "Find the current item's phrases again with its own threshold and minimum silence, for a recording the configuration's do not fit (until the queue forgets the item).",
            remote: false,
            arguments: [
                ArgumentSpec(
                    "threshold", .number,
                    "dB below the item's speech level under which it is silence, \(JSONValue.format(PhraseParameters.thresholdRange.lowerBound)) - \(JSONValue.format(PhraseParameters.thresholdRange.upperBound)); absent: phrase-threshold."
                ),
                ArgumentSpec(
                    "minimumSilence", .number,
                    "The shortest pause between phrases, seconds, \(JSONValue.format(PhraseParameters.minimumSilenceRange.lowerBound)) - \(JSONValue.format(PhraseParameters.minimumSilenceRange.upperBound)); absent: phrase-min-silence."
                ),
            ],
            verbs: [
                CLIVerb(
                    "phrase-analyze", "Find the phrases again: silence DB below the speech level, pauses of SECONDS.",
                    positionals: [
                        CLIPositional("threshold", "DB", .number, optional: true),
                        CLIPositional("minimumSilence", "SECONDS", .seconds, optional: true),
                    ],
                    examples: ["phrase analyze 24 0.5"])
            ]
        ) { args throws(RequestError) in
            .player(
                .analyzePhrases(
                    threshold: try args.number("threshold", in: PhraseParameters.thresholdRange),
                    minimumSilence: try args.number("minimumSilence", in: PhraseParameters.minimumSilenceRange)))
        },
    ]
}
