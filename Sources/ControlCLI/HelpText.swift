import ControlProtocol

/// `playbackctl --help`, `playbackctl VERB --help` and `playbackctl help templates`,
/// generated from the command catalog and the option and template declarations.
public enum HelpText {
    /// Help topics that are not verbs.
    public static let topics = ["templates"]

    public static var overview: String {
        var text = """
            Usage: playbackctl [--socket PATH] [--timeout SECONDS] [--json]
                               COMMAND [ARGUMENTS]

            Controls playbackd, the headless audio playback daemon.

            Commands:

            """
        for (_, verb) in VerbTable.all {
            let names = ([verb.name] + verb.aliases).joined(separator: ", ")
            let synopsis = VerbTable.synopsis(verb, optionsSummarized: true).dropFirst(verb.name.count)
            text += row(names + synopsis, verb.summary)
        }
        text += "\nOptions:\n"
        for option in CLIOptions.global { text += row(option.usage, option.summary) }
        text += "\nSee 'playbackctl COMMAND --help' and 'playbackctl help templates'.\n\nExit status:\n"
        for (code, meaning) in ExitCode.table { text += row(String(code), meaning, width: 4) }
        return text
    }

    /// Help for a verb (or alias) or a topic; nil when there is none by that name.
    public static func verb(_ name: String) -> String? {
        if name == "templates" { return templates }
        guard let (spec, verb) = VerbTable.find(name) else { return nil }
        var text = "Usage: playbackctl \(VerbTable.synopsis(verb))\n\n\(verb.summary)\n"
        if !verb.aliases.isEmpty { text += "Aliases: \(verb.aliases.joined(separator: ", "))\n" }
        text += "Sends the '\(spec.name.rawValue)' request: \(spec.summary)\n"
        if !spec.arguments.isEmpty {
            text += "\nArguments:\n"
            for argument in spec.arguments { text += row(argument.name, argument.summary, width: 14) }
        }
        let options = CLIOptions.of(verb: verb.name)
        if !options.isEmpty {
            text += "\nOptions:\n"
            for option in options { text += row(option.usage, option.summary, width: 24) }
            text += "\nTemplates: see 'playbackctl help templates'.\n"
        }
        if !verb.examples.isEmpty {
            text += "\nExamples:\n"
            for example in verb.examples { text += "  playbackctl \(example)\n" }
        }
        return text
    }

    /// The template language, from the field and filter declarations.
    public static var templates: String {
        var text = """
            Templates (status --format, watch --format, --tooltip):

              Text is printed as it is; {{field}} prints a value and
              {{field|filter|filter:ARG}} passes it through filters, left to right. Spaces
              inside {{ }} are ignored. An argument runs to the next | or }} and is trimmed;
              quote it to keep spaces or use \\n: {{artist|suffix:" - "}}. A value that is
              missing (no artist tag, nothing playing) prints as nothing. Newlines in tags
              print as spaces.

            Fields:

            """
        for field in TemplateField.all {
            text += row(field.name + " (\(field.kind.rawValue))", field.summary, width: 26)
        }
        text += "\nFilters:\n"
        for filter in TemplateFilterName.allCases { text += row(filter.usage, filter.summary, width: 26) }
        text += """

            Without a filter, seconds print as whole seconds and numbers without a fraction.
            --waybar escapes every value for Pango unless its last filter is markup or json;
            the template's own text is left as markup. --polybar doubles %{ in values. watch
            prints a line when it changes; when it shows elapsed, remaining or percent it is
            also printed at each second boundary while playing, and never while paused or
            stopped.

            Examples:
              {{state|icon}} {{artist|suffix:" - "}}{{title|truncate:40}}
              {{title|default:"(untagged)"|upper}} [{{elapsed|time}}/{{duration|time}}]
              <b>{{title}}</b> {{percent}}%

            """
        return text
    }

    /// `  left   right`, the right column wrapped at 80 columns under itself; a left column
    /// as wide as `width` or wider gets the right one on the lines below it.
    static func row(_ left: String, _ right: String, width: Int = 44) -> String {
        let indent = String(repeating: " ", count: width + 2)
        var lines: [String] = []
        var line = ""
        for word in right.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        let head = left.count < width ? "  " + left.padding(to: width) : "  " + left + "\n" + indent
        return head + lines.joined(separator: "\n" + indent) + "\n"
    }
}
