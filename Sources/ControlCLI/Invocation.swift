import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// A parsed `playbackctl` command line: global options and the request to send.
public struct Invocation: Equatable {
    public enum Action: Equatable {
        case help(verb: String?)
        case version
        case request(verb: String, JSONValue)
    }

    public var socket: String?
    public var json = false
    public var action: Action
}

/// A command-line error, printed with a hint to `--help`.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension Invocation {
    /// Parses argv (without the program name). `cwd` makes relative file paths absolute.
    public static func parse(_ arguments: [String], cwd: String) throws(UsageError) -> Invocation {
        var socket: String?
        var json = false
        var help = false
        var words: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--socket":
                guard let path = rest.popFirst() else { throw UsageError("--socket needs a path") }
                socket = path
            case let s where s.hasPrefix("--socket="): socket = String(s.dropFirst(9))
            case "--json": json = true
            case "-h", "--help": help = true
            case "--version": return Invocation(socket: socket, json: json, action: .version)
            case "--": words.append(contentsOf: rest); rest = []
            default: words.append(argument)
            }
        }
        guard let verbName = words.first else {
            return Invocation(socket: socket, json: json, action: .help(verb: nil))
        }
        if verbName == "help" {
            return Invocation(socket: socket, json: json, action: .help(verb: words.dropFirst().first))
        }
        guard let (spec, verb) = VerbTable.find(verbName) else {
            throw UsageError("unknown command '\(verbName)'")
        }
        if help { return Invocation(socket: socket, json: json, action: .help(verb: verb.name)) }
        let request = try RequestBuilder(spec: spec, verb: verb, cwd: cwd).build(Array(words.dropFirst()))
        return Invocation(socket: socket, json: json, action: .request(verb: verb.name, request))
    }
}

/// Every verb of every catalog entry.
public enum VerbTable {
    public static var all: [(CommandSpec, CLIVerb)] {
        CommandCatalog.all.flatMap { spec in spec.verbs.map { (spec, $0) } }
    }

    public static func find(_ word: String) -> (CommandSpec, CLIVerb)? {
        all.first { $0.1.name == word || $0.1.aliases.contains(word) }
    }

    /// `seek POSITION`, `enqueue FILE... [--replace] [--play]`.
    public static func synopsis(_ verb: CLIVerb) -> String {
        var parts = [verb.name]
        for positional in verb.positionals {
            let name = positional.placeholder + (positional.isVariadic ? "..." : "")
            parts.append(positional.isOptional ? "[\(name)]" : name)
        }
        parts += verb.flags.map { "[--\($0)]" }
        return parts.joined(separator: " ")
    }
}
