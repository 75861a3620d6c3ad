import ControlProtocol
import SystemSupport

/// `playbackd`'s command line: settings given as flags (they override the configuration
/// file, also after a reload), which configuration file to read, and help or version.
public struct DaemonOptions: Sendable {
    /// Flags in the order given, each a setting and its value.
    var flags: [(name: String, input: SettingInput)] = []
    /// `--config PATH`; nil reads the default path if it exists.
    public var configPath: String?
    public var showHelp = false
    public var showVersion = false

    public init() {}

    public static var usage: String {
        var text = """
            Usage: playbackd [OPTIONS]

            Headless audio playback daemon: plays MP3, FLAC, Ogg Vorbis, Opus, AAC and ALAC, WAV
            and AIFF, files and HTTP(S) streams, gaplessly, to the sound server or through ALSA;
            controlled over a Unix socket (see playbackctl(1) and docs/protocol.md), MPRIS on the
            session bus, and MPD's protocol when asked. Settings come from the configuration file
            ($XDG_CONFIG_HOME/playbackd/config.toml) and these flags, which win; SIGHUP re-reads
            the file (see docs/configuration.md).

            Options:

            """
        for spec in SettingsCatalog.all {
            text += row("--\(spec.name) \(spec.placeholder)", "\(spec.summary) (default: \(spec.defaultText))")
        }
        text += row("--config PATH", "Configuration file (default: $XDG_CONFIG_HOME/playbackd/config.toml)")
        text += row("--version", "Print the version and exit")
        text += row("-h, --help", "Print this help and exit")
        return text
    }

    private static func row(_ left: String, _ right: String) -> String {
        let pad =
            left.count >= 30 ? "\n" + String(repeating: " ", count: 32) : String(repeating: " ", count: 30 - left.count)
        return "  " + left + pad + right + "\n"
    }

    /// Parses argv (without the program name). Errors name the option and the bad value.
    public static func parse(_ arguments: [String]) throws(OptionsError) -> DaemonOptions {
        var options = DaemonOptions()
        var scratch = DaemonSettings()
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
            case "--config": options.configPath = try value()
            default:
                guard name.hasPrefix(bytes: "--"), let spec = SettingsCatalog.spec(String(name.dropFirst(2))) else {
                    throw OptionsError("unknown option '\(argument)'")
                }
                let input = SettingInput.word(try value())
                do {
                    try spec.apply(input, &scratch)
                } catch {
                    throw OptionsError("\(name): \(error.message)")
                }
                options.flags.append((spec.name, input))
            }
        }
        return options
    }

    /// Defaults, then the configuration file, then the flags.
    public func settings(environment: Environment) throws(ConfigurationError) -> DaemonSettings {
        var settings = DaemonSettings()
        let path =
            configPath
            ?? ConfigurationFile.defaultPath(environment: environment)
        if let path {
            try ConfigurationFile(path: path).apply(to: &settings, mustExist: configPath != nil)
        }
        // Repeated --disable flags add up, and together replace the file's list.
        if flags.contains(where: { SettingsCatalog.spec($0.name)!.isRepeatableFlag }) { settings.disabled = [] }
        for (name, input) in flags {
            try? SettingsCatalog.spec(name)!.apply(input, &settings)  // checked in `parse`
        }
        return settings
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix(bytes: "--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
    }
}

/// A bad command line, with a message that names the option.
public struct OptionsError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
