import ControlProtocol

/// What the shells complete, read from the command catalog and the option declarations, so
/// the three scripts cannot disagree with the parser.
struct CompletionModel {
    struct Verb {
        let names: [String]
        let summary: String
        let flags: [(name: String, summary: String)]
        let options: [CLIOption]
        let positional: ValueCompletion
    }

    let verbs: [Verb]
    let globalOptions = CLIOptions.global

    /// Names a `COMMAND` positional accepts: the remote commands.
    static var remoteCommandNames: [String] {
        CommandCatalog.all.filter(\.isRemoteCommand).map(\.name.rawValue)
    }

    /// Times offered for `sleep`.
    static let sleepTimes = ["15m", "30m", "45m", "1h"]

    init() {
        var verbs = VerbTable.all.map { spec, verb in
            let positional: ValueCompletion =
                // A verb that takes paths completes file names (`insert POSITION PATH...` too),
                // one that takes filters the library's names (`list albums artist=...` too).
                if verb.positionals.contains(where: { $0.kind == .filters }) {
                    .libraryFilters(first: Self.choices(verb.positionals.first?.kind))
                } else {
                    switch verb.positionals.contains(where: { $0.kind == .paths })
                        ? .paths : verb.positionals.first?.kind
                    {
                    case .paths?, .pathOrAll?, .path?: .file
                    case .commandName?: .choices(Self.remoteCommandNames)
                    case .sleepTimer?:
                        .choices(RequestBuilder.sleepBoundaries.keys.sorted() + Self.sleepTimes + ["off"])
                    case .choice(let words)?: .choices(words)
                    default: .none
                    }
                }
            let flags = verb.flags.map { flag in
                (flag, spec.arguments.first { $0.name == flag }?.summary ?? "")
            }
            return Verb(
                names: [verb.name] + verb.aliases, summary: verb.summary, flags: flags,
                options: CLIOptions.of(verb: verb.name), positional: positional)
        }
        let helpTargets = VerbTable.all.map(\.1.name) + HelpText.topics
        verbs.append(
            Verb(
                names: ["help"], summary: "Show help for a command or topic.", flags: [], options: [],
                positional: .choices(helpTargets)))
        self.verbs = verbs
    }

    /// The words a positional of `kind` takes, when it is a choice.
    private static func choices(_ kind: CLIValueKind?) -> [String] {
        if case .choice(let words)? = kind { return words }
        return []
    }

    /// Every option that takes a value, global or of a verb.
    var optionsWithValues: [CLIOption] {
        var seen = Set<String>()
        return (globalOptions + verbs.flatMap(\.options)).filter { $0.value != nil && seen.insert($0.name).inserted }
    }
}
