import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// A parsed `playbackctl` command line: global options and what to do.
public struct Invocation: Equatable {
    public enum Action: Equatable {
        case help(verb: String?)
        case version
        case completionScript(shell: String)
        case completeFilter(word: String)
        case manual
        case request(CLIRequest)
    }

    public var socket: String?
    public var json = false
    /// `--timeout`, in seconds; nil for the verb's default (`replyTimeout(for:)`).
    public var timeout: Double?
    public var action: Action

    /// How long to wait for the reply to a request of `command`.
    public func replyTimeout(for command: CommandName) -> Double {
        timeout
            ?? Double(
                command == .enqueue || command == .scrobbleLogin
                    ? CLIOptions.enqueueReplyTimeout : CLIOptions.replyTimeout)
    }
}

/// A request a command line makes: its command, the verb that made it, what a successful reply
/// holds (its catalog entry's `replies`), the request itself and how to print the reply.
public struct CLIRequest: Equatable {
    public var command: CommandName
    public var verb: String
    public var replies: CommandOutcome.Kind
    public var json: JSONValue
    public var output: OutputOptions
    /// `library update --wait`: follow the scan until it ends.
    public var waits = false
}

/// A command-line error, printed with a hint to `--help`.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Invocation {
    /// Parses argv (without the program name). `cwd` makes relative file paths absolute.
    /// Global options go anywhere; a verb's own options (`--format`) follow the verb.
    public static func parse(_ arguments: [String], cwd: String) throws(UsageError) -> Invocation {
        var socket: String?
        var json = false
        var timeout: Double?
        var help = false
        var words: [String] = []
        /// Where the words after `--` start: operands, never options or flags.
        var operandsFrom = Int.max
        var verbOptions: [(CLIOption, String)] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                operandsFrom = words.count
                words.append(contentsOf: rest)
                break
            }
            let verbName = words.first
            let known = CLIOptions.global + (verbName.map(CLIOptions.of(verb:)) ?? [])
            guard let (option, inlineValue) = Self.match(argument, in: known) else {
                if argument.hasPrefix("--"), let option = Self.match(argument, in: allVerbOptions)?.0 {
                    let owners = VerbTable.all.map(\.1.name).filter {
                        CLIOptions.of(verb: $0).contains { $0.name == option.name }
                    }
                    throw UsageError(
                        "--\(option.name) belongs to \(owners.joined(separator: " and ")), after the command")
                }
                words.append(argument)
                continue
            }
            var value = ""
            if option.value != nil {
                guard let given = inlineValue ?? rest.popFirst() else {
                    throw UsageError("\(option.usage): missing \(option.value!)")
                }
                value = given
            } else if inlineValue != nil {
                throw UsageError("--\(option.name) takes no value")
            }
            switch option.name {
            case CLIOptions.socket.name: socket = value
            case CLIOptions.timeout.name:
                guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                    throw UsageError("--timeout: '\(value)' is not a number of seconds between 0 and 86400")
                }
                timeout = seconds
            case CLIOptions.json.name: json = true
            case CLIOptions.help.name: help = true
            case CLIOptions.version.name:
                return Invocation(socket: socket, json: json, timeout: timeout, action: .version)
            case CLIOptions.manual.name:
                return Invocation(socket: socket, json: json, timeout: timeout, action: .manual)
            case CLIOptions.completionScript.name:
                guard CLIOptions.shells.contains(value) else {
                    throw UsageError(
                        "no completion script for '\(value)' (shells: \(CLIOptions.shells.joined(separator: ", ")))")
                }
                return Invocation(socket: socket, json: json, timeout: timeout, action: .completionScript(shell: value))
            case CLIOptions.completeFilter.name:
                return Invocation(socket: socket, json: json, timeout: timeout, action: .completeFilter(word: value))
            default: verbOptions.append((option, value))
            }
        }
        // `eq band 3 -6` is `eq-band 3 -6`: a verb's hyphen may be a space.
        if words.count >= 2, operandsFrom > 1, VerbTable.find(words[0] + "-" + words[1]) != nil {
            words.replaceSubrange(0..<2, with: [words[0] + "-" + words[1]])
            if operandsFrom != Int.max { operandsFrom -= 1 }
        }
        guard let verbName = words.first else {
            return Invocation(socket: socket, json: json, timeout: timeout, action: .help(verb: nil))
        }
        if verbName == "help" {
            return Invocation(
                socket: socket, json: json, timeout: timeout, action: .help(verb: words.dropFirst().first))
        }
        guard let (spec, verb) = VerbTable.find(verbName) else {
            throw UsageError("unknown command '\(verbName)'")
        }
        if help { return Invocation(socket: socket, json: json, timeout: timeout, action: .help(verb: verb.name)) }
        let request = try RequestBuilder(spec: spec, verb: verb, cwd: cwd)
            .build(Array(words.dropFirst()), operandsFrom: max(0, operandsFrom - 1))
        let output = try OutputOptions(options: verbOptions, json: json)
        // A verb may send another command than its own (`find --play` queues what it finds).
        let sent = request["command"]?.stringValue.flatMap(CommandName.init(rawValue:)) ?? spec.name
        return Invocation(
            socket: socket, json: json, timeout: timeout,
            action: .request(
                CLIRequest(
                    command: sent, verb: verb.name, replies: CommandCatalog.spec(sent).replies, json: request,
                    output: output, waits: verb.flags.contains("wait") && words.dropFirst().contains("--wait"))))
    }

    private static var allVerbOptions: [CLIOption] {
        VerbTable.all.flatMap { CLIOptions.of(verb: $0.1.name) }
    }

    /// The option `argument` names (`--name`, `--name=value`, `-s`), with an inline value.
    private static func match(_ argument: String, in options: [CLIOption]) -> (CLIOption, String?)? {
        for option in options {
            if let short = option.short, argument == "-\(short)" { return (option, nil) }
            if argument == "--\(option.name)" { return (option, nil) }
            if argument.hasPrefix("--\(option.name)=") {
                return (option, String(argument.dropFirst(option.name.count + 3)))
            }
        }
        return nil
    }
}

/// Every verb of every catalog entry.
public enum VerbTable {
    public static var all: [(CommandSpec, CLIVerb)] {
        CommandCatalog.all.flatMap { spec in spec.verbs.map { (spec, $0) } }
    }

    /// The verb named `word` (or aliased so), with its command. Walks the catalog rather than
    /// `all`, which builds an array of every pair first.
    public static func find(_ word: String) -> (CommandSpec, CLIVerb)? {
        for spec in CommandCatalog.all {
            for verb in spec.verbs where verb.name == word || verb.aliases.contains(word) { return (spec, verb) }
        }
        return nil
    }

    /// `seek POSITION`, `enqueue FILE... [--replace] [--play]`, `status [--format TEMPLATE]`;
    /// with `optionsSummarized`, a verb's own options read `[OPTIONS]`.
    public static func synopsis(_ verb: CLIVerb, optionsSummarized: Bool = false) -> String {
        var parts = [verb.name]
        for positional in verb.positionals {
            let name = positional.placeholder + (positional.isVariadic ? "..." : "")
            parts.append(positional.isOptional ? "[\(name)]" : name)
        }
        parts += verb.flags.map { "[--\($0)]" }
        let options = CLIOptions.of(verb: verb.name)
        if optionsSummarized && !options.isEmpty {
            parts.append("[OPTIONS]")
        } else {
            parts += options.map { "[\($0.usage)]" }
        }
        return parts.joined(separator: " ")
    }
}
