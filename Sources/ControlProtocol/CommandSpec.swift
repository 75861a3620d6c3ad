/// The JSON type an argument must have.
public enum ArgumentKind: String, Sendable {
    case number, boolean, string
    case stringList = "array of strings"
    case numberList = "array of numbers"
    case commandName = "command name"
    case object
    case objectList = "array of objects"
}

/// How the CLI turns a word of argv into an argument value.
public enum CLIValueKind: Sendable, Equatable {
    /// Seconds as a plain non-negative number.
    case seconds
    /// Seconds, `M:SS` or `H:MM:SS`; a leading `+` or `-` makes it relative.
    case position
    /// File paths, made absolute against the CLI's working directory.
    case paths
    /// A protocol command name.
    case commandName
    /// A 1-based queue position, sent as a 0-based index (variadic: a list of them).
    case queuePosition
    /// A whole number >= 1.
    case count
    /// One of a fixed set of words.
    case choice([String])
    /// Any number (a gain in dB, a frequency).
    case number
    /// Numbers, one per word.
    case numbers
    /// A word, sent as it is.
    case word
    /// A 1-based equalizer band, sent as a 0-based index.
    case band
    /// A preset name (argument `preset`), or a file when the word has a `/` or ends in `.txt`
    /// (argument `file`, made absolute).
    case presetOrFile
    /// A volume in percent: `N` sets it (argument `volume`), `+N` / `-N` change it (argument
    /// `change`); a trailing `%` is allowed.
    case volume
    /// A playback rate: `N` sets it (argument `rate`), `+N` / `-N` change it (argument
    /// `change`); a trailing `x` is allowed.
    case rate
    /// A sleep timer: a duration (`30m`, `45s`, `1h30m`, `90`, `1:30:00`) sets `seconds`;
    /// `end-of-item` or `end-of-chapter` sets `at`.
    case sleepTimer
    /// A file's path (argument `path`, made absolute), or `--all` (argument `all`).
    case pathOrAll
    /// One path, made absolute.
    case path
    /// Library filters: `FIELD=VALUE` (equal to) or `FIELD~VALUE` (contains), one per word.
    case filters
    /// Words, sent as one string.
    case text
    /// Words, sent as a list of strings (library ids).
    case words
    /// How long ago (`7d`, `12h`, `30m`, `90`), sent as that time: seconds since the epoch.
    case age
}

/// One request argument.
public struct ArgumentSpec: Sendable {
    public let name: String
    public let kind: ArgumentKind
    public let isRequired: Bool
    /// What the argument means, for help and the protocol reference. Written where it is read:
    /// a summary built from other declarations (the equalizer's filter types) costs nothing to
    /// the commands that never show it, which is every request `playbackctl` sends.
    public var summary: String { describe() }
    private let describe: @Sendable () -> String

    public init(
        _ name: String, _ kind: ArgumentKind, required: Bool = false,
        _ summary: @autoclosure @escaping @Sendable () -> String
    ) {
        self.name = name
        self.kind = kind
        self.isRequired = required
        self.describe = summary
    }
}

/// A positional CLI argument bound to a request argument.
public struct CLIPositional: Sendable {
    public let argument: String
    public let placeholder: String
    public let kind: CLIValueKind
    public let isOptional: Bool
    public let isVariadic: Bool

    public init(
        _ argument: String, _ placeholder: String, _ kind: CLIValueKind,
        optional: Bool = false, variadic: Bool = false
    ) {
        self.argument = argument
        self.placeholder = placeholder
        self.kind = kind
        self.isOptional = optional
        self.isVariadic = variadic
    }
}

/// A `playbackctl` verb that sends one request.
public struct CLIVerb: Sendable {
    public let name: String
    public let aliases: [String]
    public let summary: String
    public let positionals: [CLIPositional]
    /// `--flag` options that set a boolean argument to true.
    public let flags: [String]
    /// Arguments the verb always sends (e.g. `enable` sends `enabled: true`).
    public let presets: [(String, JSONValue)]
    /// Command lines (after `playbackctl`) shown in `--help` and the man page; tests check
    /// that each one parses.
    public let examples: [String]

    public init(
        _ name: String, aliases: [String] = [], _ summary: String,
        positionals: [CLIPositional] = [], flags: [String] = [],
        presets: [(String, JSONValue)] = [], examples: [String] = []
    ) {
        self.examples = examples
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.positionals = positionals
        self.flags = flags
        self.presets = presets
    }
}

/// The one declaration of a command: wire name, arguments, summary, CLI verbs, and how a
/// validated argument list becomes a typed `Command`.
public struct CommandSpec: Sendable {
    public let name: CommandName
    public let summary: String
    public let arguments: [ArgumentSpec]
    /// An MPRemoteCommand-style command: it can be disabled, and `commands` lists it.
    public let isRemoteCommand: Bool
    public let verbs: [CLIVerb]
    /// What a successful reply carries (`CommandOutcome(json:kind:)` reads it).
    public let replies: CommandOutcome.Kind
    /// Available only while the current item has chapters (`commands` shows it disabled
    /// otherwise, and it is refused as a disabled command is).
    public let needsChapters: Bool
    let build: @Sendable (ArgumentValues) throws(RequestError) -> Command

    init(
        _ name: CommandName, _ summary: String, remote: Bool, replies: CommandOutcome.Kind = .done,
        needsChapters: Bool = false, arguments: [ArgumentSpec] = [], verbs: [CLIVerb],
        build: @escaping @Sendable (ArgumentValues) throws(RequestError) -> Command
    ) {
        self.needsChapters = needsChapters
        self.name = name
        self.summary = summary
        self.replies = replies
        self.isRemoteCommand = remote
        self.arguments = arguments
        self.verbs = verbs
        self.build = build
    }
}
