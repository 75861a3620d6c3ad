import PlaybackModel
import SystemSupport

/// Every command, declared once. The request parser, the `commands` reply, the
/// `playbackctl` verbs and `docs/protocol.md` follow from this table; tests fail when one of
/// them is missing an entry.
public enum CommandCatalog {
    /// Preferred interval of the skip commands when neither the request nor the
    /// configuration names one.
    public static let defaultSkipInterval = 15.0

    public static let all: [CommandSpec] =
        transport + navigation + chapterNavigation + looping + phrasing + modes + sound + sleep + queueing + queries
        + bookmarking + library + history + scrobbling

    /// The spec for a wire name.
    public static func spec(_ name: CommandName) -> CommandSpec { byName[name]! }

    /// The playback rates `commands` offers for `changePlaybackRate`
    /// (`MPChangePlaybackRateCommand.supportedPlaybackRates`); any rate in `playbackRateRange`
    /// is accepted.
    public static let supportedPlaybackRates = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3]
    /// The rates `changePlaybackRate` accepts.
    public static let playbackRateRange = 0.5...3.0

    /// Looked up on every request, twice: a dictionary, since a scan of `all` copies every
    /// spec it passes.
    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    static let transport: [CommandSpec] = [
        CommandSpec(
            .play, "Start or resume playback of the current item.", remote: true,
            verbs: [CLIVerb("play", "Start or resume playback.", examples: ["play"])]
        ) { _ in .player(.play) },
        CommandSpec(
            .pause, "Pause playback, keeping the position.", remote: true,
            verbs: [CLIVerb("pause", "Pause playback.", examples: ["pause"])]
        ) { _ in .player(.pause) },
        CommandSpec(
            .togglePlayPause, "Pause when playing, play otherwise.", remote: true,
            verbs: [
                CLIVerb(
                    "toggle-play-pause", aliases: ["toggle"], "Toggle between play and pause.",
                    examples: ["toggle-play-pause", "toggle"])
            ]
        ) { _ in .player(.togglePlayPause) },
        CommandSpec(
            .stop, "Stop playback and release the device; the queue is kept, the position returns to the item's start.",
            remote: true,
            verbs: [CLIVerb("stop", "Stop playback.", examples: ["stop"])]
        ) { _ in .player(.stop) },
    ]

    static let navigation: [CommandSpec] = [
        CommandSpec(
            .nextTrack, "Go to the next item; past the last one playback stops.", remote: true,
            verbs: [CLIVerb("next-track", aliases: ["next"], "Go to the next item.", examples: ["next"])]
        ) { _ in .player(.nextTrack) },
        CommandSpec(
            .previousTrack, "Restart the current item when more than 3 s in, else go to the previous item.",
            remote: true,
            verbs: [
                CLIVerb(
                    "previous-track", aliases: ["prev", "previous"], "Restart the item or go to the previous one.",
                    examples: ["previous"])
            ]
        ) { _ in .player(.previousTrack) },
        CommandSpec(
            .skipForward, "Move forward by an interval, clamped to the end of the item.",
            remote: true, replies: .position,
            arguments: [ArgumentSpec("interval", .number, "Seconds, > 0; default: the preferred interval.")],
            verbs: [
                CLIVerb(
                    "skip-forward", "Skip forward (default: the preferred interval).",
                    positionals: [CLIPositional("interval", "SECONDS", .seconds, optional: true)],
                    examples: ["skip-forward", "skip-forward 30"])
            ]
        ) { args throws(RequestError) in
            .player(.skipForward(interval: try args.positiveNumber("interval")))
        },
        CommandSpec(
            .skipBackward, "Move backward by an interval, clamped to the start of the item.",
            remote: true, replies: .position,
            arguments: [ArgumentSpec("interval", .number, "Seconds, > 0; default: the preferred interval.")],
            verbs: [
                CLIVerb(
                    "skip-backward", "Skip backward (default: the preferred interval).",
                    positionals: [CLIPositional("interval", "SECONDS", .seconds, optional: true)],
                    examples: ["skip-backward", "skip-backward 10"])
            ]
        ) { args throws(RequestError) in
            .player(.skipBackward(interval: try args.positiveNumber("interval")))
        },
        CommandSpec(
            .changePlaybackPosition, "Seek to an absolute position in the current item, sample-accurately.",
            remote: true, replies: .position,
            arguments: [ArgumentSpec("position", .number, required: true, "Seconds from the start of the item, >= 0.")],
            verbs: [
                CLIVerb(
                    "seek", "Seek to POSITION (seconds, M:SS or H:MM:SS); +N / -N skip relatively.",
                    positionals: [CLIPositional("position", "POSITION", .position)],
                    examples: ["seek 90", "seek 1:30", "seek 1:02:03", "seek +10", "seek -10"])
            ]
        ) { args throws(RequestError) in
            .player(.changePlaybackPosition(position: try args.nonNegativeNumber("position")!))
        },
    ]

    static let modes: [CommandSpec] = [
        CommandSpec(
            .changeRepeatMode,
            "Set the repeat mode: off, one (the current item loops seamlessly) or all (the queue starts over).",
            remote: true,
            arguments: [ArgumentSpec("mode", .string, required: true, "\"off\", \"one\" or \"all\".")],
            verbs: [
                CLIVerb(
                    "repeat", "Set the repeat mode.",
                    positionals: [CLIPositional("mode", "MODE", .choice(RepeatMode.allCases.map(\.rawValue)))],
                    examples: ["repeat one", "repeat all", "repeat off"])
            ]
        ) { args throws(RequestError) in
            .player(.changeRepeatMode(try args.choice("mode", RepeatMode.self)!))
        },
        CommandSpec(
            .changeShuffleMode,
            "Set the shuffle mode: items plays every item once per cycle in a random order, keeping the current item; off restores the queue's order.",
            remote: true,
            arguments: [ArgumentSpec("mode", .string, required: true, "\"off\" or \"items\".")],
            verbs: [
                CLIVerb(
                    "shuffle", "Set the shuffle mode.",
                    positionals: [CLIPositional("mode", "MODE", .choice(ShuffleMode.allCases.map(\.rawValue)))],
                    examples: ["shuffle items", "shuffle off"])
            ]
        ) { args throws(RequestError) in
            .player(.changeShuffleMode(try args.choice("mode", ShuffleMode.self)!))
        },
        CommandSpec(
            .changeSingleMode,
            "Set whether playback stops where an item ends: on (every item: paused, the next item current at its start), once (after the current item, then off) or off; with repeat on, on plays the item again (MPD's single).",
            remote: true,
            arguments: [ArgumentSpec("mode", .string, required: true, "\"off\", \"on\" or \"once\".")],
            verbs: [
                CLIVerb(
                    "single", "Stop after every item (on), after the current one (once), or not (off).",
                    positionals: [CLIPositional("mode", "MODE", .choice(SingleMode.allCases.map(\.rawValue)))],
                    examples: ["single once", "single on", "single off"])
            ]
        ) { args throws(RequestError) in
            .player(.changeSingleMode(try args.choice("mode", SingleMode.self)!))
        },
        CommandSpec(
            .changeConsumeMode,
            "Set whether an item leaves the queue once played (to its end, or skipped with nextTrack): on, once (the next item played, then off) or off (MPD's consume).",
            remote: true,
            arguments: [ArgumentSpec("mode", .string, required: true, "\"off\", \"on\" or \"once\".")],
            verbs: [
                CLIVerb(
                    "consume", "Remove each item from the queue once it has played (on, once, off).",
                    positionals: [CLIPositional("mode", "MODE", .choice(ConsumeMode.allCases.map(\.rawValue)))],
                    examples: ["consume on", "consume once", "consume off"])
            ]
        ) { args throws(RequestError) in
            .player(.changeConsumeMode(try args.choice("mode", ConsumeMode.self)!))
        },
        CommandSpec(
            .setReplayGainMode,
            "Set which ReplayGain applies: off, track, album, or auto (album while the queue plays in order, else track); until a restart, as MPD's replay_gain_mode.",
            remote: true,
            arguments: [ArgumentSpec("mode", .string, required: true, "\"off\", \"track\", \"album\" or \"auto\".")],
            verbs: [
                CLIVerb(
                    "replay-gain", "Set the ReplayGain mode until a restart (config.toml's replay-gain lasts).",
                    positionals: [CLIPositional("mode", "MODE", .choice(ReplayGainMode.allCases.map(\.rawValue)))],
                    examples: ["replay-gain album", "replay-gain off"])
            ]
        ) { args throws(RequestError) in
            .player(.setReplayGainMode(try args.choice("mode", ReplayGainMode.self)!))
        },
        CommandSpec(
            .changePlaybackRate,
            "Set the playback rate (media seconds per second, pitch kept) or change it; 1 leaves the samples untouched.",
            remote: true,
            arguments: [
                ArgumentSpec("rate", .number, "The rate, 0.5 - 3 (1: normal speed)."),
                ArgumentSpec("change", .number, "To add (negative: to take off), -2.5 - 2.5; instead of rate."),
            ],
            verbs: [
                CLIVerb(
                    "rate", aliases: ["speed"], "Set the playback rate to N (pitch kept), or change it by +N / -N.",
                    positionals: [CLIPositional("rate", "RATE", .rate)],
                    examples: ["rate 1.5", "rate +0.25", "rate 1"])
            ]
        ) { args throws(RequestError) in
            switch try args.oneOf(
                ("rate", try args.number("rate", in: playbackRateRange)),
                or: ("change", try args.number("change", in: -2.5...2.5)))
            {
            case .first(let rate): .player(.changePlaybackRate(.to(rate)))
            case .second(let change): .player(.changePlaybackRate(.by(change)))
            }
        },
        CommandSpec(
            .setCrossfade,
            "Set the crossfade between items (docs/crossfade.md): seconds of overlap, 0 - 12 (0: none), and which transitions fade: off, always, or albums (all but between consecutive tracks of one album).",
            remote: false,
            arguments: [
                ArgumentSpec("seconds", .number, "The overlap, 0 - 12 s; absent: unchanged."),
                ArgumentSpec("mode", .string, "\"off\", \"always\" or \"albums\"; absent: unchanged."),
            ],
            verbs: [
                CLIVerb(
                    "crossfade", "Set the crossfade to N seconds (0: none), and optionally its mode.",
                    positionals: [
                        CLIPositional("seconds", "SECONDS", .number),
                        CLIPositional("mode", "MODE", .choice(Crossfade.Mode.allCases.map(\.rawValue)), optional: true),
                    ],
                    examples: ["crossfade 5", "crossfade 3 always", "crossfade 0"])
            ]
        ) { args throws(RequestError) in
            let seconds = try args.number("seconds", in: Crossfade.secondsRange)
            let mode = try args.choice("mode", Crossfade.Mode.self)
            guard seconds != nil || mode != nil else { throw RequestError("give 'seconds', 'mode' or both") }
            return .player(.setCrossfade(seconds: seconds, mode: mode))
        },
    ]

    static let sound: [CommandSpec] = [
        CommandSpec(
            .setOutputEnabled,
            "Switch the output off (playing pauses, the device is let go, and play is refused until it is on) or on again; MPD's enableoutput and disableoutput.",
            remote: false,
            arguments: [ArgumentSpec("enabled", .boolean, "true: on, false: off; absent: the other way.")],
            verbs: [
                CLIVerb(
                    "output-on", "Switch the output on.", presets: [("enabled", .bool(true))], examples: ["output on"]),
                CLIVerb(
                    "output-off", "Switch the output off: playing pauses and nothing plays until it is on.",
                    presets: [("enabled", .bool(false))], examples: ["output off"]),
                CLIVerb("output-toggle", "Switch the output the other way.", examples: ["output toggle"]),
            ]
        ) { args throws(RequestError) in .player(.setOutputEnabled(try args.bool("enabled"))) },
        CommandSpec(
            .changeVolume,
            "Set the software volume (0 - 100 %) or change it by a number of points; smooth, and 100 leaves the samples untouched.",
            remote: true,
            arguments: [
                ArgumentSpec("volume", .number, "The level, 0 - 100 (%)."),
                ArgumentSpec(
                    "change", .number, "Points to add (negative: to take off), -100 - 100; instead of volume."),
            ],
            verbs: [
                CLIVerb(
                    "volume", "Set the volume to N % or change it by +N / -N points.",
                    positionals: [CLIPositional("volume", "LEVEL", .volume)],
                    examples: ["volume 70", "volume +10", "volume -5"])
            ]
        ) { args throws(RequestError) in
            switch try args.oneOf(
                ("volume", try args.number("volume", in: 0...100)),
                or: ("change", try args.number("change", in: -100...100)))
            {
            case .first(let level): .player(.changeVolume(.to(level)))
            case .second(let change): .player(.changeVolume(.by(change)))
            }
        },
        CommandSpec(
            .equalizer,
            "Return the equalizer (on or off, preamp, global gain, bands, the preset it came from) and the preset names.",
            remote: false, replies: .equalizer,
            verbs: [CLIVerb("eq", "Show the equalizer's bands and the presets.", examples: ["eq", "--json eq"])]
        ) { _ in .presets(.list) },
        CommandSpec(
            .setEqualizerEnabled, "Switch the equalizer on or off; off (or flat) leaves the samples untouched.",
            remote: false, replies: .equalizer,
            arguments: [ArgumentSpec("enabled", .boolean, required: true, "true to apply the equalizer.")],
            verbs: [
                CLIVerb("eq-on", "Switch the equalizer on.", presets: [("enabled", .bool(true))], examples: ["eq on"]),
                CLIVerb(
                    "eq-off", "Switch the equalizer off.", presets: [("enabled", .bool(false))], examples: ["eq off"]),
            ]
        ) { args throws(RequestError) in .player(.setEqualizerEnabled(try args.bool("enabled")!)) },
        CommandSpec(
            .setEqualizerBand, "Change one band: any of its type, frequency, width (bandwidth or q), gain and bypass.",
            remote: false, replies: .equalizer,
            arguments: [
                ArgumentSpec("band", .number, required: true, "The band's index (0-based)."),
                ArgumentSpec("gain", .number, "dB, -96 - 24 (peaking and shelving filters)."),
                ArgumentSpec("frequency", .number, "Centre or corner frequency, 10 - 24000 Hz."),
                ArgumentSpec("bandwidth", .number, "Octaves, 0.05 - 5 (drops a Q)."),
                ArgumentSpec("q", .number, "Quality factor, 0.025 - 40, instead of bandwidth."),
                ArgumentSpec(
                    "type", .string,
                    "The filter: \(EQFilterType.ordered.map { "\"\($0.rawValue)\"" }.concatenated(separator: ", "))."),
                ArgumentSpec("bypass", .boolean, "true to leave the band out."),
            ],
            verbs: [
                CLIVerb(
                    "eq-band", "Set band N (1-based) to GAIN dB, and optionally its frequency and width in octaves.",
                    positionals: [
                        CLIPositional("band", "N", .band), CLIPositional("gain", "GAIN", .number),
                        CLIPositional("frequency", "HZ", .number, optional: true),
                        CLIPositional("bandwidth", "OCTAVES", .number, optional: true),
                    ],
                    examples: ["eq band 6 -4.5", "eq band 1 3 40 1.5"])
            ]
        ) { args throws(RequestError) in
            var change = EQBandChange()
            change.type = try args.choice("type", EQFilterType.self)
            change.frequency = try args.number("frequency", in: EQBand.frequencyRange)
            change.bandwidth = try args.number("bandwidth", in: EQBand.bandwidthRange)
            change.q = try args.number("q", in: EQBand.qRange)
            change.gain = try args.number("gain", in: EQBand.gainRange)
            change.bypass = try args.bool("bypass")
            if change.bandwidth != nil && change.q != nil {
                throw RequestError("'bandwidth' and 'q' cannot be combined")
            }
            guard change != EQBandChange() else { throw RequestError("setEqualizerBand changes nothing") }
            return .player(.setEqualizerBand(index: try args.index("band")!, change))
        },
        CommandSpec(
            .setEqualizerGains, "Set every band's gain at once, one value per band, in order.",
            remote: false, replies: .equalizer,
            arguments: [ArgumentSpec("gains", .numberList, required: true, "dB per band, each -96 - 24.")],
            verbs: [
                CLIVerb(
                    "eq-gains", "Set the gains of all bands, in dB.",
                    positionals: [CLIPositional("gains", "GAIN", .numbers, variadic: true)],
                    examples: ["eq gains 3 3 3 2 0 -6 -6 -6 -6 -6"])
            ]
        ) { args throws(RequestError) in
            .player(.setEqualizerGains(try args.numberList("gains", in: EQBand.gainRange)!))
        },
        CommandSpec(
            .setEqualizerGlobalGain, "Set the gain applied after the bands (AVAudioUnitEQ's globalGain).",
            remote: false, replies: .equalizer,
            arguments: [ArgumentSpec("gain", .number, required: true, "dB, -96 - 24.")],
            verbs: [
                CLIVerb(
                    "eq-global", "Set the global gain in dB.",
                    positionals: [CLIPositional("gain", "GAIN", .number)], examples: ["eq global -3"])
            ]
        ) { args throws(RequestError) in
            .player(.setEqualizerGlobalGain(try args.number("gain", in: EQBand.gainRange)!))
        },
        CommandSpec(
            .resetEqualizer,
            "Return to the ten flat one-octave bands, no preamp and no global gain; on or off as before.",
            remote: false, replies: .equalizer,
            verbs: [CLIVerb("eq-reset", "Flatten the equalizer.", examples: ["eq reset"])]
        ) { _ in .player(.resetEqualizer) },
        CommandSpec(
            .loadEqualizer,
            "Load a preset by name (built-in or saved), or a parametric EQ text file such as AutoEq's ParametricEQ.txt, and switch the equalizer on.",
            remote: false, replies: .equalizer,
            arguments: [
                ArgumentSpec("preset", .string, "A preset's name."),
                ArgumentSpec("file", .string, "The absolute path of a parametric EQ text file; instead of preset."),
            ],
            verbs: [
                CLIVerb(
                    "eq-load", "Load a preset by NAME, or a ParametricEQ.txt FILE.",
                    positionals: [CLIPositional("preset", "NAME|FILE", .presetOrFile)],
                    examples: ["eq load bass-boost", "eq load ~/AutoEq/ParametricEQ.txt"])
            ]
        ) { args throws(RequestError) in
            switch try args.oneOf(("preset", try args.string("preset")), or: ("file", try args.string("file"))) {
            case .first(let name): return .presets(.load(.preset(name)))
            case .second(let path):
                guard path.hasPrefix(bytes: "/") else {
                    throw RequestError("'file' must be an absolute path, got '\(path)'")
                }
                return .presets(.load(.file(path)))
            }
        },
        CommandSpec(
            .saveEqualizer,
            "Save the current curve as a named preset (parametric EQ text under the configuration directory's eq/).",
            remote: false, replies: .equalizer,
            arguments: [
                ArgumentSpec("name", .string, required: true, "The preset's name: letters, digits, '-', '_', '.'.")
            ],
            verbs: [
                CLIVerb(
                    "eq-save", "Save the current curve as preset NAME.",
                    positionals: [CLIPositional("name", "NAME", .word)], examples: ["eq save my-headphones"])
            ]
        ) { args throws(RequestError) in
            let name = try args.string("name")!
            if let problem = EqualizerPreset.problem(withName: name) { throw RequestError(problem) }
            return .presets(.save(name: name))
        },
    ]

    static let queueing: [CommandSpec] = [
        CommandSpec(
            .enqueue,
            "Add files, directories (recursively, in natural order), M3U/M3U8/PLS playlists and http(s) URLs (docs/streams.md) to the queue; unplayable entries are rejected one by one with the reason.",
            remote: false, replies: .enqueued,
            arguments: [
                ArgumentSpec(
                    "items", .stringList,
                    "Absolute paths of files, directories or playlists, or http(s) URLs of files, streams or playlists."
                ),
                ArgumentSpec(
                    "libraryIDs", .stringList,
                    "Library song and album ids (an album's songs in disc and track order), instead of items."),
                ArgumentSpec(
                    "libraryQuery", .object,
                    "A library query's songs, in its order (the members of libraryQuery; at most 100,000 songs), instead of items."
                ),
                ArgumentSpec("at", .number, "Insert before this queue index (0-based) instead of appending."),
                ArgumentSpec("next", .boolean, "Insert right after the current item (play next)."),
                ArgumentSpec("replace", .boolean, "Replace the queue instead of appending."),
                ArgumentSpec("play", .boolean, "Start playing the first added item."),
            ],
            verbs: [
                CLIVerb(
                    "enqueue", aliases: ["add"], "Add files, directories, playlists or URLs to the queue.",
                    positionals: [CLIPositional("items", "PATH", .paths, variadic: true)],
                    flags: ["next", "replace", "play"],
                    examples: [
                        "enqueue ~/Music/album --play", "add track.mp3", "enqueue --next podcast.mp3",
                        "enqueue --replace --play a.mp3 b.mp3", "add ~/Music/mix.m3u8",
                        "enqueue --play https://radio.example/stations.pls",
                    ]),
                CLIVerb(
                    "enqueue-ids", "Add library songs and albums by their ids (from find, search and list).",
                    positionals: [CLIPositional("libraryIDs", "ID", .words, variadic: true)],
                    flags: ["next", "replace", "play"],
                    examples: [
                        "enqueue-ids album-4076339674624847893 --replace --play", "enqueue-ids 6151 6152 --next",
                    ]
                ),
                CLIVerb(
                    "insert", "Insert files, directories or playlists before POSITION (1-based).",
                    positionals: [
                        CLIPositional("at", "POSITION", .queuePosition),
                        CLIPositional("items", "PATH", .paths, variadic: true),
                    ],
                    flags: ["play"],
                    examples: ["insert 1 intro.mp3", "insert 3 ~/Music/album"]),
            ]
        ) { args throws(RequestError) in
            let at = try args.index("at")
            let next = try args.bool("next") ?? false
            if at != nil && next { throw RequestError("'at' and 'next' cannot be combined") }
            let placement = at.map(EnqueuePlacement.index) ?? (next ? .next : .end)
            let (replace, play) = (try args.bool("replace") ?? false, try args.bool("play") ?? false)
            let ids = try args.stringList("libraryIDs")
            let query = try args.values["libraryQuery"].map { json throws(RequestError) in
                var query = try LibraryQuery(
                    members: Dictionary(json.objectMembers ?? [], uniquingKeysWith: { a, _ in a }))
                if json["limit"] == nil { query.limit = LibraryQuery.maximumEnqueue }
                return query
            }
            switch (try args.stringList("items"), ids, query) {
            case (let paths?, nil, nil):
                return .enqueue(paths: paths, placement: placement, replace: replace, play: play)
            case (nil, let ids?, nil):
                return .enqueueLibrary(.ids(ids), placement: placement, replace: replace, play: play)
            case (nil, nil, let query?):
                return .enqueueLibrary(.query(query), placement: placement, replace: replace, play: play)
            default: throw RequestError("enqueue takes one of 'items', 'libraryIDs' and 'libraryQuery'")
            }
        },
        CommandSpec(
            .remove, "Remove items from the queue; removing the current item moves on to the one that would play next.",
            remote: false, replies: .removed,
            arguments: [
                ArgumentSpec("index", .number, required: true, "Queue index (0-based) of the first item to remove."),
                ArgumentSpec("count", .number, "How many items, >= 1; default 1."),
            ],
            verbs: [
                CLIVerb(
                    "remove", aliases: ["rm"], "Remove the item at POSITION (1-based), or COUNT items from there.",
                    positionals: [
                        CLIPositional("index", "POSITION", .queuePosition),
                        CLIPositional("count", "COUNT", .count, optional: true),
                    ],
                    examples: ["remove 3", "remove 2 5"])
            ]
        ) { args throws(RequestError) in
            let count = try args.index("count") ?? 1
            guard count >= 1 else { throw RequestError("'count' must be at least 1") }
            return .player(.remove(index: try args.index("index")!, count: count))
        },
        CommandSpec(
            .move, "Move one item to another index; playback is not interrupted.", remote: false,
            arguments: [
                ArgumentSpec("from", .number, required: true, "Queue index (0-based) of the item."),
                ArgumentSpec("to", .number, required: true, "Index (0-based) it has afterwards."),
            ],
            verbs: [
                CLIVerb(
                    "move", aliases: ["mv"], "Move the item at FROM to position TO (1-based).",
                    positionals: [
                        CLIPositional("from", "FROM", .queuePosition), CLIPositional("to", "TO", .queuePosition),
                    ],
                    examples: ["move 5 1"])
            ]
        ) { args throws(RequestError) in
            .player(.move(from: try args.index("from")!, to: try args.index("to")!))
        },
        CommandSpec(
            .shuffleQueue,
            "Put the queue's items in a random order, once (not the shuffle mode); the item playing goes first and plays on.",
            remote: false,
            arguments: [
                ArgumentSpec("index", .number, "Queue index (0-based) of the first item shuffled; default 0."),
                ArgumentSpec("count", .number, "How many items, >= 1; default: to the end."),
            ],
            verbs: [
                CLIVerb(
                    "shuffle-queue", "Put the queue (or COUNT items from POSITION, 1-based) in a random order, once.",
                    positionals: [
                        CLIPositional("index", "POSITION", .queuePosition, optional: true),
                        CLIPositional("count", "COUNT", .count, optional: true),
                    ],
                    examples: ["shuffle-queue", "shuffle-queue 5 10"])
            ]
        ) { args throws(RequestError) in
            let count = try args.index("count")
            guard count.map({ $0 >= 1 }) ?? true else { throw RequestError("'count' must be at least 1") }
            return .player(.shuffleQueue(index: try args.index("index") ?? 0, count: count))
        },
        CommandSpec(
            .setPriority,
            "Give items a priority, 0 - 255 (default 0): while shuffled, items of a higher priority play first, the current item going on; a priority is spent (0) when its item starts (MPD's prio); in the queue's order it changes nothing.",
            remote: false,
            arguments: [
                ArgumentSpec("priority", .number, required: true, "0 - 255."),
                ArgumentSpec("indices", .numberList, required: true, "Queue indices (0-based) of the items."),
            ],
            verbs: [
                CLIVerb(
                    "prio",
                    "Give the items at POSITION... (1-based) priority N (0 - 255; shuffled, higher plays first).",
                    positionals: [
                        CLIPositional("priority", "N", .number),
                        CLIPositional("indices", "POSITION", .queuePosition, variadic: true),
                    ],
                    examples: ["prio 10 4", "prio 255 2 3", "prio 0 4"])
            ]
        ) { args throws(RequestError) in
            let priority = try args.number("priority", in: 0...255)!
            guard priority == priority.rounded() else { throw RequestError("'priority' must be a whole number") }
            let indices = try args.numberList("indices", in: 0...Double(PlaybackQueue.maximumCount))!
            guard indices.allSatisfy({ $0 == $0.rounded() }) else {
                throw RequestError("'indices' must be whole numbers")
            }
            return .player(.setPriority(UInt8(priority), indices: indices.map { Int($0) }))
        },
        CommandSpec(
            .jump, "Make the item at an index current, from its start, keeping the transport state.", remote: false,
            arguments: [ArgumentSpec("index", .number, required: true, "Queue index (0-based).")],
            verbs: [
                CLIVerb(
                    "jump", "Go to the item at POSITION (1-based).",
                    positionals: [CLIPositional("index", "POSITION", .queuePosition)],
                    examples: ["jump 4"])
            ]
        ) { args throws(RequestError) in
            .player(.jump(index: try args.index("index")!))
        },
        CommandSpec(
            .clear, "Stop and empty the queue.", remote: false,
            verbs: [CLIVerb("clear", "Stop and empty the queue.", examples: ["clear"])]
        ) { _ in .player(.clear) },
    ]

    static let queries: [CommandSpec] = [
        CommandSpec(
            .queue, "List a page of the queue (with metadata), the current index, the total count and the play modes.",
            remote: false, replies: .queuePage,
            arguments: [
                ArgumentSpec("offset", .number, "Index (0-based) of the first item listed; default 0."),
                ArgumentSpec(
                    "limit", .number,
                    "Most items listed, 1 to \(ProtocolLimits.queuePageItems); default \(ProtocolLimits.queuePageItems)."
                ),
            ],
            verbs: [CLIVerb("queue", "List the queue.", examples: ["queue", "--json queue"])]
        ) { args throws(RequestError) in
            let limit = try args.index("limit") ?? ProtocolLimits.queuePageItems
            guard (1...ProtocolLimits.queuePageItems).contains(limit) else {
                throw RequestError("'limit' must be from 1 to \(ProtocolLimits.queuePageItems), got \(limit)")
            }
            return .player(.queue(offset: try args.index("offset") ?? 0, limit: limit))
        },
        CommandSpec(
            .nowPlaying, "Return the now-playing snapshot.", remote: false, replies: .nowPlaying,
            verbs: [
                CLIVerb(
                    "status", "Show what is playing.",
                    examples: [
                        "status", "--json status",
                        "status --format '{{state|icon}} {{artist|suffix:\" - \"}}{{title}}'",
                        "status --format '{{elapsed|time}}/{{duration|time}}'",
                    ])
            ]
        ) { _ in .nowPlaying },
        CommandSpec(
            .commands,
            "List the remote commands, whether each is enabled, the skip intervals and the supported playback rates.",
            remote: false, replies: .commands,
            verbs: [
                CLIVerb(
                    "commands", "List the commands and whether they are enabled.", examples: ["commands"])
            ]
        ) { _ in .player(.commands) },
        CommandSpec(
            .subscribe, "Reply with a snapshot, then push one event line per change.",
            remote: false, replies: .nowPlaying,
            verbs: [
                CLIVerb(
                    "watch",
                    "Print a line on every change, and every second while playing when the line shows the time.",
                    examples: [
                        "watch --waybar", "watch --i3blocks --max-width 40",
                        "watch --polybar --format '{{title|truncate:30}}'",
                        "watch --format '{{state|icon}} {{title}} {{elapsed|time}}' --offline 'not running'",
                        "watch --json",
                    ])
            ]
        ) { _ in .subscribe },
        CommandSpec(
            .setCommandEnabled, "Enable or disable a remote command.", remote: false, replies: .commands,
            arguments: [
                ArgumentSpec("name", .commandName, required: true, "The remote command's wire name."),
                ArgumentSpec("enabled", .boolean, required: true, "true to enable, false to disable."),
            ],
            verbs: [
                CLIVerb(
                    "enable", "Enable a remote command.",
                    positionals: [CLIPositional("name", "COMMAND", .commandName)],
                    presets: [("enabled", .bool(true))], examples: ["enable skipForward"]),
                CLIVerb(
                    "disable", "Disable a remote command.",
                    positionals: [CLIPositional("name", "COMMAND", .commandName)],
                    presets: [("enabled", .bool(false))], examples: ["disable nextTrack"]),
            ]
        ) { args throws(RequestError) in
            let name = try args.commandName("name")!
            guard CommandCatalog.spec(name).isRemoteCommand else {
                throw RequestError("'\(name.rawValue)' is not a remote command and cannot be disabled")
            }
            return .player(.setCommandEnabled(name, enabled: try args.bool("enabled")!))
        },
    ]
}
