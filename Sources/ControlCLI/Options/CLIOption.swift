import ControlProtocol

/// What a shell may complete for an option's value.
public enum ValueCompletion: Sendable, Equatable {
    case none
    case file
    case choices([String])
    /// Library filters (`FIELD=VALUE`) whose names come from the running daemon
    /// (`--complete-filter`), after a first word from `first` when it is not empty (`list`'s
    /// entity).
    case libraryFilters(first: [String])
}

/// An option `playbackctl` handles itself rather than sending to the daemon. Declared once;
/// the parser, `--help`, the completions and the man page follow.
public struct CLIOption: Sendable {
    public let name: String
    public let short: String?
    /// The value's placeholder (`TEMPLATE`); nil for a switch.
    public let value: String?
    public let summary: String
    public let completion: ValueCompletion

    init(
        _ name: String, short: String? = nil, value: String? = nil, _ summary: String,
        completion: ValueCompletion = .none
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.summary = summary
        self.completion = completion
    }

    /// `--format TEMPLATE`, `-h, --help`.
    public var usage: String {
        let long = "--\(name)" + (value.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }
}

/// Every option of `playbackctl`: the global ones, and those of the verbs that print snapshots.
public enum CLIOptions {
    public static let shells = ["bash", "zsh", "fish"]

    public static let socket = CLIOption(
        "socket", value: "PATH",
        "Control socket (default: $PLAYBACKD_SOCKET, else playbackd/control.sock in $XDG_RUNTIME_DIR, else in /tmp/playbackd-$UID)",
        completion: .file)
    public static let timeout = CLIOption(
        "timeout", value: "SECONDS",
        "How long to wait for the daemon's reply (default: \(replyTimeout) s; enqueue and scrobble-login \(enqueueReplyTimeout) s)"
    )
    /// The default `--timeout`: a media key must never hang on a daemon that does not answer.
    public static let replyTimeout = 5
    /// `enqueue`'s and `scrobbleLogin`'s default `--timeout`: the reply follows the probing of
    /// every file added, or a request to the service (after one under way, 30 s at most).
    public static let enqueueReplyTimeout = 60
    public static let json = CLIOption("json", "Print the daemon's reply as JSON (watch: the raw snapshots)")
    public static let help = CLIOption("help", short: "h", "Show help (also: playbackctl COMMAND --help)")
    public static let version = CLIOption("version", "Print the version")
    public static let completionScript = CLIOption(
        "generate-completion-script", value: "SHELL", "Print the completion script for bash, zsh or fish",
        completion: .choices(shells))
    public static let manual = CLIOption("generate-manual", "Print the man page (roff)")
    public static let completeFilter = CLIOption(
        "complete-filter", value: "FIELD=PREFIX",
        "Print the library's names that complete a find or list filter, one per line (the completion scripts run it)")

    public static let global = [socket, timeout, json, help, version, completionScript, manual, completeFilter]

    public static let format = CLIOption(
        "format", value: "TEMPLATE", "Print TEMPLATE, e.g. '{{artist}} - {{title}}' (see TEMPLATES)")
    public static let maxWidth = CLIOption(
        "max-width", value: "N", "Cut the text to N characters, ending in …")
    public static let waybar = CLIOption(
        "waybar", "waybar JSON lines: text, alt, tooltip, class (the state), percentage")
    public static let tooltip = CLIOption(
        "tooltip", value: "TEMPLATE", "With --waybar: the tooltip's template")
    public static let i3blocks = CLIOption(
        "i3blocks", "i3blocks persist-mode lines (plain text, interval=persist without format=json)")
    public static let polybar = CLIOption("polybar", "Plain lines for polybar's tail = true (%{ escaped)")
    public static let offline = CLIOption(
        "offline", value: "TEXT", "What to show while playbackd is not running (default: empty)")

    /// The options of the verbs of `command`: `status` (`nowPlaying`) and `watch`
    /// (`subscribe`) print snapshots in a format of the user's.
    public static func of(_ command: CommandName) -> [CLIOption] {
        switch command {
        case .nowPlaying: [format, maxWidth]
        case .subscribe: [format, waybar, i3blocks, polybar, tooltip, maxWidth, offline]
        default: []
        }
    }

    /// The options of the verb named `verb` (or aliased so); none for an unknown word.
    public static func of(verb: String) -> [CLIOption] { VerbTable.find(verb).map { of($0.0.name) } ?? [] }
}
