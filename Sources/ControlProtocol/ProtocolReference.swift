import PlaybackModel

/// The command and status reference of `docs/protocol.md`, generated from the catalog so the
/// documentation cannot drift from what the parser accepts.
public enum ProtocolReference {
    public static let section = GeneratedSection(source: "CommandCatalog")

    public static var markdown: String {
        var text = "## Commands\n\n"
        for spec in CommandCatalog.all {
            text += "### `\(spec.name.rawValue)`\n\n\(spec.summary)"
            text += spec.isRemoteCommand ? " Remote command: can be disabled.\n\n" : "\n\n"
            if spec.arguments.isEmpty {
                text += "No arguments.\n\n"
            } else {
                text += "| argument | type | required | meaning |\n|---|---|---|---|\n"
                for argument in spec.arguments {
                    text +=
                        "| `\(argument.name)` | \(argument.kind.rawValue) | \(argument.isRequired ? "yes" : "no") | \(argument.summary) |\n"
                }
                text += "\n"
            }
            text += "Reply: \(spec.replies.summary)\n\n"
            let verbs = spec.verbs.map { "`playbackctl \($0.name)`" }.joined(separator: ", ")
            text += "CLI: \(verbs).\n\n"
        }
        text += "## Statuses\n\n| status | meaning | `playbackctl` exit code |\n|---|---|---|\n"
        for status in CommandStatus.allCases {
            text += "| `\(status.rawValue)` | \(status.summary) | \(status.exitCode) |\n"
        }
        return text
    }
}
