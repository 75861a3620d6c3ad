import ControlProtocol

/// `playbackctl --help` and `playbackctl VERB --help`, generated from the command catalog.
public enum HelpText {
    public static var overview: String {
        var text = """
            Usage: playbackctl [--socket PATH] [--json] COMMAND [ARGUMENTS]

            Controls playbackd, the headless audio playback daemon.

            Commands:

            """
        for (_, verb) in VerbTable.all {
            let names = ([verb.name] + verb.aliases).joined(separator: ", ")
            let synopsis = VerbTable.synopsis(verb).dropFirst(verb.name.count)
            text += "  " + (names + synopsis).padding(to: 44) + verb.summary + "\n"
        }
        text += """

            Options:
              --socket PATH                               Control socket (default: $PLAYBACKD_SOCKET,
                                                          else $XDG_RUNTIME_DIR/playbackd/control.sock,
                                                          else /tmp/playbackd-$UID/control.sock)
              --json                                      Print the daemon's reply as JSON
              -h, --help                                  Show help (also: playbackctl COMMAND --help)
              --version                                   Print the version

            Exit status:

            """
        for (code, meaning) in ExitCode.table {
            text += "  " + String(code).padding(to: 4) + meaning + "\n"
        }
        return text
    }

    public static func verb(_ name: String) -> String? {
        guard let (spec, verb) = VerbTable.find(name) else { return nil }
        var text = "Usage: playbackctl \(VerbTable.synopsis(verb))\n\n\(verb.summary)\n"
        if !verb.aliases.isEmpty { text += "Aliases: \(verb.aliases.joined(separator: ", "))\n" }
        text += "Sends the '\(spec.name.rawValue)' request: \(spec.summary)\n"
        if !spec.arguments.isEmpty {
            text += "\nArguments:\n"
            for argument in spec.arguments {
                text += "  " + argument.name.padding(to: 12) + argument.summary + "\n"
            }
        }
        return text
    }
}
