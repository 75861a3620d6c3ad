import ControlProtocol

/// `playbackd`'s command-line options.
public struct DaemonOptions: Sendable, Equatable {
    public var device = "default"
    public var socket: String?
    public var pauseHoldSeconds = 10.0
    public var skipForwardInterval = CommandCatalog.defaultSkipInterval
    public var skipBackwardInterval = CommandCatalog.defaultSkipInterval
    public var disabled: Set<CommandName> = []
    public var logLevel = DaemonLog.Level.info
    public var showHelp = false
    public var showVersion = false

    public init() {}

    public static let usage = """
        Usage: playbackd [OPTIONS]

        Headless audio playback daemon: plays MP3 through ALSA, controlled over a Unix socket
        (see playbackctl(1) and docs/protocol.md).

        Options:
          --device NAME              ALSA PCM to play on (default: default)
          --socket PATH              Control socket (default: $PLAYBACKD_SOCKET, else
                                     $XDG_RUNTIME_DIR/playbackd/control.sock, else
                                     /tmp/playbackd-$UID/control.sock)
          --pause-hold SECONDS       Release the device after this long paused (default: 10)
          --skip-interval SECONDS    Preferred interval of both skip commands (default: 15)
          --skip-forward-interval SECONDS
          --skip-backward-interval SECONDS
          --disable COMMAND          Start with a remote command disabled (repeatable)
          --log-level LEVEL          error, warning, notice, info or debug (default: info)
          --version                  Print the version and exit
          -h, --help                 Print this help and exit
        """

    /// Parses argv (without the program name). Errors name the option and the bad value.
    public static func parse(_ arguments: [String]) throws(OptionsError) -> DaemonOptions {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (name, inline) = split(argument)
            func value() throws(OptionsError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw OptionsError("\(name) needs a value") }
                return next
            }
            switch name {
            case "-h", "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--device": options.device = try value()
            case "--socket": options.socket = try value()
            case "--pause-hold": options.pauseHoldSeconds = try seconds(name, try value(), allowZero: true)
            case "--skip-interval":
                options.skipForwardInterval = try seconds(name, try value(), allowZero: false)
                options.skipBackwardInterval = options.skipForwardInterval
            case "--skip-forward-interval":
                options.skipForwardInterval = try seconds(name, try value(), allowZero: false)
            case "--skip-backward-interval":
                options.skipBackwardInterval = try seconds(name, try value(), allowZero: false)
            case "--disable": options.disabled.insert(try remoteCommand(try value()))
            case "--log-level": options.logLevel = try level(try value())
            default: throw OptionsError("unknown option '\(argument)'")
            }
        }
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }

    private static func seconds(_ name: String, _ text: String, allowZero: Bool) throws(OptionsError) -> Double {
        guard let value = Double(text), value.isFinite, allowZero ? value >= 0 : value > 0 else {
            throw OptionsError(
                "\(name): '\(text)' is not a \(allowZero ? "non-negative" : "positive") number of seconds")
        }
        return value
    }

    private static func remoteCommand(_ text: String) throws(OptionsError) -> CommandName {
        guard let name = CommandName(rawValue: text), CommandCatalog.spec(name).isRemoteCommand else {
            let names = CommandCatalog.all.filter(\.isRemoteCommand).map(\.name.rawValue).joined(separator: ", ")
            throw OptionsError("--disable: '\(text)' is not a remote command (one of: \(names))")
        }
        return name
    }

    private static func level(_ text: String) throws(OptionsError) -> DaemonLog.Level {
        let levels: [String: DaemonLog.Level] = [
            "error": .error, "warning": .warning, "notice": .notice,
            "info": .info, "debug": .debug,
        ]
        guard let level = levels[text] else { throw OptionsError("--log-level: unknown level '\(text)'") }
        return level
    }
}

/// A bad command line, with a message that names the option.
public struct OptionsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
