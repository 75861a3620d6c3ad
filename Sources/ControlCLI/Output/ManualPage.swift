import ControlProtocol
import PlaybackModel

/// `playbackctl(1)` in roff, from the same declarations as `--help`.
public enum ManualPage {
    public static var text: String {
        var page = """
            .TH PLAYBACKCTL 1 "" "playbackd \(PlaybackdVersion.current)" "User Commands"
            .SH NAME
            playbackctl \\- control playbackd, the headless audio playback daemon
            .SH SYNOPSIS
            .B playbackctl
            [\\fB\\-\\-socket\\fR \\fIPATH\\fR] [\\fB\\-\\-json\\fR] \\fICOMMAND\\fR [\\fIARGUMENTS\\fR]
            .SH DESCRIPTION
            .B playbackctl
            sends one command to
            .BR playbackd (1)
            over its control socket and prints the reply, or with
            .B watch
            prints a line on every change for status bars. Media-key bindings run it directly.
            .SH COMMANDS

            """
        for (spec, verb) in VerbTable.all {
            page += ".TP\n.B \"\(roff(VerbTable.synopsis(verb)))\"\n\(roff(verb.summary))\n"
            if !verb.aliases.isEmpty { page += ".br\nAliases: \(roff(verb.aliases.joined(separator: ", "))).\n" }
            page += ".br\nRequest: \\fB\(spec.name.rawValue)\\fR. \(roff(spec.summary))\n"
            for option in CLIOptions.of(verb: verb.name) {
                page += ".br\n\\fB\(roff(option.usage))\\fR: \(roff(option.summary))\n"
            }
            for example in verb.examples { page += ".br\n\\fBplaybackctl \(roff(example))\\fR\n" }
        }
        page += ".SH OPTIONS\n"
        for option in CLIOptions.global { page += ".TP\n.B \"\(roff(option.usage))\"\n\(roff(option.summary))\n" }
        page += ".SH TEMPLATES\n.nf\n"
        page += HelpText.templates.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            .map { roff(String($0)) }.joined(separator: "\n")
        page += "\n.fi\n.SH EXIT STATUS\n"
        for (code, meaning) in ExitCode.table { page += ".TP\n.B \(code)\n\(roff(meaning))\n" }
        page += """
            .SH ENVIRONMENT
            .TP
            .B PLAYBACKD_SOCKET
            The control socket, unless \\fB\\-\\-socket\\fR names one.
            .TP
            .B XDG_RUNTIME_DIR
            The socket is \\fI$XDG_RUNTIME_DIR/playbackd/control.sock\\fR by default.
            .TP
            .B NO_COLOR
            When set and not empty, output is never coloured. Colour is used only on a terminal.
            .SH SEE ALSO
            .BR playbackd (1),
            .BR systemd.service (5)
            .PP
            docs/cli.md, docs/media-keys.md and docs/protocol.md in the playbackd documentation.

            """
        return page
    }

    /// Escapes text for roff: backslashes, hyphens, non-ASCII characters, and a leading `.` or `'`.
    static func roff(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
