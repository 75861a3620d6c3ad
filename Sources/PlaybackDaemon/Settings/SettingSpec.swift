import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// A setting's value as given, before it is checked against the setting.
enum SettingInput {
    /// A command-line word.
    case word(String)
    case string(String)
    case number(Double)
    case boolean(Bool)
    case strings([String])
    case numbers([Double])
    /// A configuration value of a type no setting takes (a table, a date), named.
    case other(String)

    var typeName: String {
        switch self {
        case .word, .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .strings: "an array of strings"
        case .numbers: "an array of numbers"
        case .other(let name): name
        }
    }
}

/// One setting, declared once: its flag `--name` and configuration key `name`, what it accepts,
/// its default, and whether SIGHUP applies it to a running daemon. The flag parser, the
/// configuration file reader, `--help` and docs/configuration.md follow from this table.
struct SettingSpec: Sendable {
    let name: String
    let placeholder: String
    let summary: String
    let defaultText: String
    /// Nil when SIGHUP applies the setting to the running daemon; otherwise what keeps the
    /// running value on a reload: it copies the setting from the running settings into the
    /// reloaded ones and says whether the file asked for a different value.
    let keepOnReload: (@Sendable (_ reloaded: inout DaemonSettings, _ running: DaemonSettings) -> Bool)?
    /// Checks the value and stores it; errors say what was expected.
    let apply: @Sendable (SettingInput, inout DaemonSettings) throws(SettingValueError) -> Void

    init(
        name: String, placeholder: String, summary: String, defaultText: String,
        keepOnReload: (@Sendable (inout DaemonSettings, DaemonSettings) -> Bool)? = nil,
        apply: @escaping @Sendable (SettingInput, inout DaemonSettings) throws(SettingValueError) -> Void
    ) {
        self.name = name
        self.placeholder = placeholder
        self.summary = summary
        self.defaultText = defaultText
        self.keepOnReload = keepOnReload
        self.apply = apply
    }

    /// Whether SIGHUP applies it to a running daemon.
    var isReloadable: Bool { keepOnReload == nil }

    /// The `keepOnReload` of a setting stored at `keyPath` that applies only at start.
    static func atRestart<Value: Equatable & SendableMetatype>(
        _ keyPath: WritableKeyPath<DaemonSettings, Value> & Sendable
    ) -> @Sendable (inout DaemonSettings, DaemonSettings) -> Bool {
        { reloaded, running in
            defer { reloaded[keyPath: keyPath] = running[keyPath: keyPath] }
            return reloaded[keyPath: keyPath] != running[keyPath: keyPath]
        }
    }

    /// `--disable`, `--library-directories` and `--mpd-listen` may be given more than once on the command
    /// line; each adds one value.
    var isRepeatableFlag: Bool { ["disable", "library-directories", "mpd-listen", "mpd-password"].contains(name) }
}

/// Why a value does not fit its setting (the caller adds where it came from).
struct SettingValueError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

enum SettingsCatalog {
    static let all: [SettingSpec] = [
        SettingSpec(
            name: "device", placeholder: "NAME",
            summary:
                "default (the sound server when running, else ALSA's default), an ALSA PCM, or pulseaudio[:SINK]",
            defaultText: "default",
            keepOnReload: SettingSpec.atRestart(\.device)
        ) { input, settings throws(SettingValueError) in settings.device = try text(input, nonEmpty: true) },
        SettingSpec(
            name: "snapcast", placeholder: "URL",
            summary:
                "Play into snapserver's tcp source instead of the device: tcp://HOST:PORT[?sampleformat=RATE:16:2&buffer=MS] (docs/multiroom.md)",
            defaultText: "(none)",
            keepOnReload: SettingSpec.atRestart(\.snapcast)
        ) { input, settings throws(SettingValueError) in
            let value = try text(input, nonEmpty: true)
            do throws(SnapcastAddressError) {
                settings.snapcast = try SnapcastAddress(parsing: value)
            } catch {
                throw SettingValueError(error.description)
            }
        },
        SettingSpec(
            name: "socket", placeholder: "PATH",
            summary: "Control socket (default: $PLAYBACKD_SOCKET, else $XDG_RUNTIME_DIR/playbackd/control.sock, "
                + "else /tmp/playbackd-$UID/control.sock); ignored when systemd passes the socket",
            defaultText: "(see summary)", keepOnReload: SettingSpec.atRestart(\.socket)
        ) { input, settings throws(SettingValueError) in settings.socket = try text(input, nonEmpty: true) },
        SettingSpec(
            name: "stream-stall-timeout", placeholder: "SECONDS",
            summary:
                "An HTTP(S) stream with no byte for this long counts as dropped; read at restart (docs/streams.md)",
            defaultText: "10", keepOnReload: SettingSpec.atRestart(\.streamStallSeconds)
        ) { input, settings throws(SettingValueError) in
            settings.streamStallSeconds = try seconds(input, allowZero: false, max: 600)
        },
        SettingSpec(
            name: "tls-ca-file", placeholder: "PATH",
            summary: "CA certificates (PEM) to trust for https:// items instead of the system's; read at restart",
            defaultText: "(the system's)", keepOnReload: SettingSpec.atRestart(\.tlsCAFile)
        ) { input, settings throws(SettingValueError) in settings.tlsCAFile = try text(input, nonEmpty: true) },
        seconds(
            "pause-hold", "Release the device after this long paused (ALSA's plugin for a sound server: at once)", "10",
            allowZero: true, max: 86_400,
            \.pauseHoldSeconds),
        SettingSpec(
            name: "skip-interval", placeholder: "SECONDS", summary: "Preferred interval of both skip commands",
            defaultText: "15"
        ) { input, settings throws(SettingValueError) in
            settings.skipForwardInterval = try seconds(input, allowZero: false, max: 3600)
            settings.skipBackwardInterval = settings.skipForwardInterval
        },
        seconds(
            "skip-forward-interval", "Preferred interval of skipForward", "15", allowZero: false, max: 3600,
            \.skipForwardInterval),
        seconds(
            "skip-backward-interval", "Preferred interval of skipBackward", "15", allowZero: false, max: 3600,
            \.skipBackwardInterval),
        SettingSpec(
            name: "disable", placeholder: "COMMAND",
            summary: "Remote commands to disable (flag: repeatable; file: an array of names)",
            defaultText: "[] (all enabled)"
        ) { input, settings throws(SettingValueError) in
            switch input {
            case .word(let name): settings.disabled.insert(try remoteCommand(name))
            case .strings(let names):
                var disabled: Set<CommandName> = []
                for name in names { disabled.insert(try remoteCommand(name)) }
                settings.disabled = disabled
            default: throw SettingValueError("expected an array of command names, found \(input.typeName)")
            }
        },
        SettingSpec(
            name: "library-directories", placeholder: "DIR",
            summary:
                "The music library's folders, absolute (flag: repeatable; file: an array); the library is indexed and watched (docs/library.md)",
            defaultText: "the XDG music directory (user-dirs.dirs), else ~/Music",
            keepOnReload: SettingSpec.atRestart(\.libraryDirectories)
        ) { input, settings throws(SettingValueError) in
            let folders = try list(input, adding: settings.libraryDirectories ?? [], of: "folders") {
                $0.hasPrefix("/") ? nil : "'\($0)' is not an absolute path"
            }
            settings.libraryDirectories = folders.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        },
        SettingSpec(
            name: "mpd-listen", placeholder: "ADDRESS",
            summary:
                "Where MPD's protocol is served, for MPD's clients: `host:port` (port 0: any free one) or an absolute socket path (flag: repeatable; file: an array) (docs/mpd.md)",
            defaultText: "nowhere", keepOnReload: SettingSpec.atRestart(\.mpdListen)
        ) { input, settings throws(SettingValueError) in
            settings.mpdListen = try list(input, adding: settings.mpdListen, of: "addresses") {
                if case .failure(let problem) = MPDListenAddress.parse($0) { problem.message } else { nil }
            }
        },
        SettingSpec(
            name: "mpd-password", placeholder: "PASSWORD@LEVELS",
            summary:
                "An MPD client's password and what it allows: read, add, control and admin, with commas (flag: repeatable; file: an array) (docs/mpd.md)",
            defaultText: "none", keepOnReload: SettingSpec.atRestart(\.mpdPasswords)
        ) { input, settings throws(SettingValueError) in
            settings.mpdPasswords = try list(input, adding: settings.mpdPasswords, of: "passwords") {
                MPDAccess.parse(password: $0) == nil
                    ? "'\($0)' is not PASSWORD@LEVELS (levels: read, add, control, admin)" : nil
            }
        },
        SettingSpec(
            name: "mpd-default-permissions", placeholder: "LEVELS",
            summary: "What an MPD client may do before sending a password: read, add, control, admin, with commas",
            defaultText: "all without passwords, read with them",
            keepOnReload: SettingSpec.atRestart(\.mpdDefaultPermissions)
        ) { input, settings throws(SettingValueError) in
            let levels = try text(input, nonEmpty: true)
            guard MPDPermission.parse(levels) != nil else {
                throw SettingValueError("'\(levels)' is not a list of read, add, control, admin")
            }
            settings.mpdDefaultPermissions = levels
        },
        SettingSpec(
            name: "log-level", placeholder: "LEVEL", summary: "error, warning, notice, info or debug",
            defaultText: "info"
        ) { input, settings throws(SettingValueError) in
            let name = try choice(input, DaemonLog.Level.allCases.map(\.name))
            settings.logLevel = DaemonLog.Level.allCases.first { $0.name == name }!
        },
        choice(
            "log", "TARGET", "auto (the journal when stderr is connected to it), journal or stderr",
            reloads: true, \.logTarget),
        seconds(
            "idle-exit",
            "Exit after this long stopped with an empty queue and no client (0: never); "
                + "with playbackd.socket the next command starts it again",
            "0", allowZero: true, max: 604_800, \.idleExitSeconds),
        boolean(
            "realtime", "Ask for SCHED_FIFO for the output thread (the unit grants LimitRTPRIO)", reloads: false,
            \.realtime),
        boolean(
            "mpris",
            "Be an MPRIS2 player on the session bus (desktop media controls, media keys, playerctl); "
                + "joins the bus when it appears", reloads: true, \.mpris),
        number(
            "volume", "PERCENT",
            "Software volume at start, 0 - 100 (%; a volume saved in the resume state wins; changeVolume sets it while running); 100 leaves the samples untouched",
            0...100, unit: "%", \.volume),
        boolean(
            "equalizer", "Apply the equalizer (eq-gains, eq-global-gain); off, or flat, leaves the samples untouched",
            reloads: true, \.equalizer.isEnabled),
        SettingSpec(
            name: "eq-gains", placeholder: "DB,...",
            summary: "Gains of the ten one-octave parametric bands at 32, 64, 128, 256, 500, 1k, 2k, 4k, 8k and "
                + "16k Hz, dB (-96 - 24; flag: comma-separated)",
            defaultText: "all 0"
        ) { input, settings throws(SettingValueError) in
            let gains: [Double]
            switch input {
            case .numbers(let numbers): gains = numbers
            case .word(let word):
                gains = try word.split(separator: ",", omittingEmptySubsequences: false).map {
                    (part) throws(SettingValueError) -> Double in
                    guard let value = Double(part.filter { $0 != " " }) else {
                        throw SettingValueError("'\(part)' is not a number of dB")
                    }
                    return value
                }
            default: throw SettingValueError("expected an array of ten numbers (dB), found \(input.typeName)")
            }
            guard gains.count == Equalizer.tenBandFrequencies.count else {
                throw SettingValueError("expected ten gains, one per band, found \(gains.count)")
            }
            for gain in gains where !EQBand.gainRange.contains(gain) || !gain.isFinite {
                throw SettingValueError("\(JSONValue.number(gain).serialized) dB is out of range (-96 to 24)")
            }
            settings.equalizer.bands = EqualizerPreset.tenBand(gains).bands
        },
        decibels(
            "eq-global-gain", "The equalizer's global gain, dB (-96 - 24)", EQBand.gainRange, \.equalizer.globalGain),
        choice(
            "replaygain", "MODE",
            "Apply ReplayGain: off, track, album, or auto (album when not shuffled and the item before or after is from the same album)",
            reloads: true, \.replayGain.mode),
        decibels(
            "replaygain-preamp", "dB added to every ReplayGain gain (-15 - 15)", ReplayGainSettings.preampRange,
            \.replayGain.preamp),
        decibels(
            "replaygain-missing",
            "dB applied to files without ReplayGain tags while their loudness is not measured (-15 - 15)",
            ReplayGainSettings.preampRange, \.replayGain.missingGain),
        boolean(
            "replaygain-limit", "Lower a ReplayGain gain that would lift the tagged peak above full scale",
            reloads: true, \.replayGain.limitToPeak),
        choice(
            "loudness-analysis", "MODE",
            "Measure loudness (EBU R128) for the gain of files ReplayGain applies to: untagged (files without gain tags), all (every file; tags win), prefer (every file; the measure wins), or off",
            reloads: true, \.replayGain.analysis),
        number(
            "rate-min-length", "MINUTES",
            "The playback rate (changePlaybackRate) applies to items at least this long, such as podcasts and audiobooks; shorter ones, such as songs, play at 1 (0: every item)",
            0...1440, unit: " minutes", scale: 60, \.rateMinimumSeconds),
        number(
            "crossfade", "SECONDS",
            "Seconds over which one item fades out while the next fades in (docs/crossfade.md; 0: none, gapless; one saved in the resume state wins)",
            Crossfade.secondsRange, unit: " s", \.crossfade.seconds),
        choice(
            "crossfade-mode", "MODE",
            "Which transitions fade: always, or albums (all but between consecutive tracks of one album, which stay gapless), or off",
            reloads: true, \.crossfade.mode),
        number(
            "crossfade-skip", "SECONDS",
            "While crossfade is on, a skip (next, previous, jump) fades over this long from the position heard (0: it cuts)",
            Crossfade.skipSecondsRange, unit: " s", \.crossfade.skipSeconds),
        number(
            "bookmark-min-length", "MINUTES",
            "Items at least this long (audiobooks, podcasts) keep a bookmark: played again, from any queue or after a restart, they start where they were left (0: no bookmarks)",
            0...1440, unit: " minutes", scale: 60, \.bookmarkMinimumSeconds),
        number(
            "sleep-fade", "SECONDS",
            "How long the sleep timer fades playback out before it pauses (never longer than the timer; 0: no fade)",
            0...60, unit: " s", \.sleepFadeSeconds),
        number(
            "phrase-threshold", "DB",
            "Phrase analysis: a window quieter than the item's speech level less this many dB is silence (docs/phrases.md)",
            PhraseParameters.thresholdRange, unit: " dB", \.phrases.threshold),
        number(
            "phrase-min-silence", "SECONDS", "Phrase analysis: the shortest silence that ends a phrase",
            PhraseParameters.minimumSilenceRange, unit: " s", \.phrases.minimumSilence),
        number(
            "phrase-min-length", "SECONDS",
            "Phrase analysis: a shorter fragment joins its neighbour across the shorter pause",
            PhraseParameters.minimumPhraseRange, unit: " s", \.phrases.minimumPhrase),
        number(
            "phrase-max-length", "SECONDS", "Phrase analysis: a longer phrase is split at its deepest pause",
            PhraseParameters.maximumPhraseRange, unit: " s", \.phrases.maximumPhrase),
        number(
            "phrase-padding", "SECONDS", "Phrase analysis: silence kept before and after each phrase",
            PhraseParameters.paddingRange, unit: " s", \.phrases.padding),
        choice(
            "on-route-lost", "ACTION",
            "When the output device goes away (headphones unplugged, a sink removed): pause, or continue where the system sends the stream",
            reloads: true, \.onRouteLost),
        choice(
            "on-route-back", "ACTION",
            "When a new output device appears after a lost one paused playback: stay-paused, or resume on it",
            reloads: true, \.onRouteBack),
        choice(
            "resume", "MODE",
            "On start, restore the saved queue and position: paused, playing (when it was playing) or off",
            reloads: false, \.resume),
        url(
            "listenbrainz-url", "The ListenBrainz API's root, or a server that speaks it (docs/scrobbling.md)",
            ScrobbleSettings.listenBrainzRoot, \.scrobbling.listenBrainzURL),
        path(
            "listenbrainz-token-file",
            "A file (mode 0600) holding the ListenBrainz user token: listens are submitted when it is set",
            \.scrobbling.listenBrainzTokenFile),
        url(
            "lastfm-url", "The Last.fm API's root (2.0), or Libre.fm's (docs/scrobbling.md)",
            ScrobbleSettings.lastFMRoot, \.scrobbling.lastFMURL),
        url(
            "lastfm-auth-url", "The page where a user allows playbackd at Last.fm (scrobble-login)",
            ScrobbleSettings.lastFMAuthorizationPage, \.scrobbling.lastFMAuthorizationURL),
        SettingSpec(
            name: "lastfm-api-key", placeholder: "KEY",
            summary: "The Last.fm API account's key: scrobbles are sent when it and lastfm-api-secret-file are set",
            defaultText: "(none)", keepOnReload: SettingSpec.atRestart(\.scrobbling.lastFMAPIKey)
        ) { input, settings throws(SettingValueError) in
            settings.scrobbling.lastFMAPIKey = try text(input, nonEmpty: true)
        },
        path(
            "lastfm-api-secret-file", "A file (mode 0600) holding the Last.fm API account's shared secret",
            \.scrobbling.lastFMSecretFile),
        boolean(
            "scrobble-streams",
            "A live stream's title of the form Artist - Title heard for 30 s is a listen (recorded, and scrobbled)",
            reloads: true, \.scrobbling.streams),
    ]

    static func spec(_ name: String) -> SettingSpec? { all.first { $0.name == name } }

    /// An `http://` or `https://` address stored at `keyPath`, read at restart.
    private static func url(
        _ name: String, _ summary: String, _ defaultURL: String,
        _ keyPath: WritableKeyPath<DaemonSettings, String> & Sendable
    ) -> SettingSpec {
        SettingSpec(
            name: name, placeholder: "URL", summary: summary, defaultText: defaultURL,
            keepOnReload: SettingSpec.atRestart(keyPath)
        ) { input, settings throws(SettingValueError) in
            let url = try text(input, nonEmpty: true)
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw SettingValueError("'\(url)' is not an http:// or https:// address")
            }
            settings[keyPath: keyPath] = url
        }
    }

    /// A file's path stored at `keyPath`, read at restart.
    private static func path(
        _ name: String, _ summary: String, _ keyPath: WritableKeyPath<DaemonSettings, String?> & Sendable
    ) -> SettingSpec {
        SettingSpec(
            name: name, placeholder: "PATH", summary: summary, defaultText: "(none)",
            keepOnReload: SettingSpec.atRestart(keyPath)
        ) { input, settings throws(SettingValueError) in settings[keyPath: keyPath] = try text(input, nonEmpty: true) }
    }

    /// A setting that is one of an enumeration's raw values, stored at `keyPath`; the default
    /// shown is the value `DaemonSettings()` has.
    private static func choice<Choice: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: String, _ placeholder: String, _ summary: String, reloads: Bool,
        _ keyPath: WritableKeyPath<DaemonSettings, Choice> & Sendable
    ) -> SettingSpec where Choice.RawValue == String {
        SettingSpec(
            name: name, placeholder: placeholder, summary: summary,
            defaultText: DaemonSettings()[keyPath: keyPath].rawValue,
            keepOnReload: reloads ? nil : SettingSpec.atRestart(keyPath)
        ) { input, settings throws(SettingValueError) in
            settings[keyPath: keyPath] = Choice(rawValue: try choice(input, Choice.allCases.map(\.rawValue)))!
        }
    }

    /// A boolean stored at `keyPath` (`true`/`yes` or `false`/`no` on the command line).
    private static func boolean(
        _ name: String, _ summary: String, reloads: Bool, _ keyPath: WritableKeyPath<DaemonSettings, Bool> & Sendable
    ) -> SettingSpec {
        SettingSpec(
            name: name, placeholder: "BOOL", summary: summary, defaultText: String(DaemonSettings()[keyPath: keyPath]),
            keepOnReload: reloads ? nil : SettingSpec.atRestart(keyPath)
        ) { input, settings throws(SettingValueError) in
            switch input {
            case .boolean(let value): settings[keyPath: keyPath] = value
            case .word("true"), .word("yes"): settings[keyPath: keyPath] = true
            case .word("false"), .word("no"): settings[keyPath: keyPath] = false
            default: throw SettingValueError("expected true or false, found \(describe(input))")
            }
        }
    }

    /// A reloadable gain in dB within `range`, stored at `keyPath`; 0 by default.
    private static func decibels(
        _ name: String, _ summary: String, _ range: ClosedRange<Double>,
        _ keyPath: WritableKeyPath<DaemonSettings, Double> & Sendable
    ) -> SettingSpec {
        number(name, "DB", summary, range, unit: " dB", keyPath)
    }

    /// A number in `range`, read in `unit` and stored at `keyPath` multiplied by `scale` (60 for
    /// minutes kept as seconds). The default shown is the stored default read back in `unit`.
    private static func number(
        _ name: String, _ placeholder: String, _ summary: String, _ range: ClosedRange<Double>, unit: String,
        scale: Double = 1, _ keyPath: WritableKeyPath<DaemonSettings, Double> & Sendable
    ) -> SettingSpec {
        let defaultValue = DaemonSettings()[keyPath: keyPath] / scale
        return SettingSpec(
            name: name, placeholder: placeholder, summary: summary,
            defaultText: JSONValue.number(defaultValue).serialized
        ) { input, settings throws(SettingValueError) in
            settings[keyPath: keyPath] = try number(input, in: range, unit: unit) * scale
        }
    }

    /// A reloadable number of seconds stored at `keyPath`.
    private static func seconds(
        _ name: String, _ summary: String, _ defaultText: String, allowZero: Bool, max: Double,
        _ keyPath: WritableKeyPath<DaemonSettings, Double> & Sendable
    ) -> SettingSpec {
        SettingSpec(
            name: name, placeholder: "SECONDS", summary: summary, defaultText: defaultText
        ) { input, settings throws(SettingValueError) in
            settings[keyPath: keyPath] = try seconds(input, allowZero: allowZero, max: max)
        }
    }

    /// A number within `range` (a flag's word or a configuration number).
    private static func number(_ input: SettingInput, in range: ClosedRange<Double>, unit: String)
        throws(SettingValueError) -> Double
    {
        let value = try parsedNumber(input, "a number")
        guard value.isFinite, range.contains(value) else {
            throw SettingValueError(
                "\(JSONValue.number(value).serialized)\(unit) is out of range (\(JSONValue.number(range.lowerBound).serialized) to \(JSONValue.number(range.upperBound).serialized)\(unit))"
            )
        }
        return value
    }

    /// A configuration number or a flag's word read as one; `what` names it in the errors.
    private static func parsedNumber(_ input: SettingInput, _ what: String) throws(SettingValueError) -> Double {
        switch input {
        case .number(let number): return number
        case .word(let word):
            guard let number = Double(word) else { throw SettingValueError("'\(word)' is not \(what)") }
            return number
        default: throw SettingValueError("expected \(what), found \(input.typeName)")
        }
    }

    /// A repeatable setting's values: a flag's word added to `values`, or the file's array.
    /// A repeatable setting's values: a flag's word added to `values`, or the file's array;
    /// `problem` names what is wrong with a value (nil: nothing), the first one found is the error.
    private static func list(
        _ input: SettingInput, adding values: [String], of what: String,
        problem: (String) -> String? = { _ in nil }
    ) throws(SettingValueError) -> [String] {
        let list: [String]
        switch input {
        case .word(let value): list = values + [value]
        case .strings(let strings): list = strings
        default: throw SettingValueError("expected an array of \(what), found \(input.typeName)")
        }
        if let message = list.lazy.compactMap(problem).first { throw SettingValueError(message) }
        return list
    }

    private static func text(_ input: SettingInput, nonEmpty: Bool) throws(SettingValueError) -> String {
        switch input {
        case .word(let text), .string(let text):
            guard !nonEmpty || !text.isEmpty else { throw SettingValueError("must not be empty") }
            return text
        default: throw SettingValueError("expected a string, found \(input.typeName)")
        }
    }

    private static func seconds(_ input: SettingInput, allowZero: Bool, max: Double) throws(SettingValueError) -> Double
    {
        let range = "\(allowZero ? "0" : "more than 0") to \(JSONValue.number(max).serialized)"
        let value = try parsedNumber(input, "a number of seconds")
        guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= max else {
            throw SettingValueError("\(JSONValue.number(value).serialized) is out of range (\(range) seconds)")
        }
        return value
    }

    private static func choice(_ input: SettingInput, _ choices: [String]) throws(SettingValueError) -> String {
        let value = try text(input, nonEmpty: false)
        guard choices.contains(value) else {
            throw SettingValueError("'\(value)' is not one of \(choices.joined(separator: ", "))")
        }
        return value
    }

    private static func remoteCommand(_ name: String) throws(SettingValueError) -> CommandName {
        guard let command = CommandName(rawValue: name), CommandCatalog.spec(command).isRemoteCommand else {
            let names = CommandCatalog.all.filter(\.isRemoteCommand).map(\.name.rawValue).joined(separator: ", ")
            throw SettingValueError("'\(name)' is not a remote command (one of: \(names))")
        }
        return command
    }

    private static func describe(_ input: SettingInput) -> String {
        if case .word(let word) = input { return "'\(word)'" }
        return input.typeName
    }
}
