import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a verb's words into a request object, following the verb's declaration.
struct RequestBuilder {
    let spec: CommandSpec
    let verb: CLIVerb
    let cwd: String

    /// `words` follow the verb; those from index `operandsFrom` on came after `--` and are
    /// operands even when they start with `-` (`enqueue -- --odd.mp3`).
    func build(_ words: [String], operandsFrom: Int = Int.max) throws(UsageError) -> JSONValue {
        var command = spec.name.rawValue
        var members: [(String, JSONValue)] = verb.presets
        var positionalWords: [String] = []
        for (index, word) in words.enumerated() {
            if index < operandsFrom, word.hasPrefix("--"), word.count > 2 {
                let flag = String(word.dropFirst(2))
                guard verb.flags.contains(flag) else { throw UsageError("\(verb.name): unknown option '\(word)'") }
                members.append((flag, .bool(true)))
            } else {
                positionalWords.append(word)
            }
        }
        var remaining = positionalWords[...]
        for positional in verb.positionals {
            if positional.isVariadic {
                if remaining.isEmpty && positional.isOptional { continue }
                guard !remaining.isEmpty else { throw UsageError("\(verb.name): missing \(positional.placeholder)") }
                members.append((positional.argument, try value(Array(remaining), positional)))
                remaining = []
                continue
            }
            guard let word = remaining.popFirst() else {
                if positional.isOptional { continue }
                throw UsageError("\(verb.name): missing \(positional.placeholder)")
            }
            if positional.kind == .volume || positional.kind == .rate, word.first == "+" || word.first == "-" {
                members.append(("change", try value([word], positional)))
                continue
            }
            if positional.kind == .sleepTimer, let boundary = Self.sleepBoundaries[word] {
                members.append(("at", .string(boundary.rawValue)))
                continue
            }
            if positional.kind == .presetOrFile, word.contains("/") || word.hasSuffix(".txt") {
                members.append(("file", .string(absolute(word))))
                continue
            }
            if positional.kind == .position, spec.name == .changePlaybackPosition, let relative = relativeSeek(word) {
                command = relative.command
                members.append(("interval", .number(relative.seconds)))
                continue
            }
            members.append((positional.argument, try value([word], positional)))
        }
        if let extra = remaining.first { throw UsageError("\(verb.name): unexpected argument '\(extra)'") }
        if spec.name == .libraryQuery, let queued = Self.queueing(members) { return queued }
        // `--wait` is the CLI's own: it follows the scan's progress (`Runner`).
        members.removeAll { $0.0 == "wait" }
        return .object([("command", .string(command))] + members)
    }

    /// A query verb given `--play`, `--next` or `--add` queues what it finds: an `enqueue` of
    /// the query (`--play` replaces the queue and plays it, `--next` plays it next, `--add`
    /// appends it). Nil without one of them.
    private static func queueing(_ members: [(String, JSONValue)]) -> JSONValue? {
        let flags: Set<String> = ["play", "next", "add"]
        let given = members.filter { flags.contains($0.0) }.map(\.0)
        guard !given.isEmpty else { return nil }
        let query = members.filter { !flags.contains($0.0) }
        var enqueue: [(String, JSONValue)] = [
            ("command", .string(CommandName.enqueue.rawValue)), ("libraryQuery", .object(query)),
        ]
        if given.contains("play") { enqueue += [("replace", .bool(true)), ("play", .bool(true))] }
        if given.contains("next") { enqueue.append(("next", .bool(true))) }
        return .object(enqueue)
    }

    /// The words `sleep` takes for a boundary.
    static let sleepBoundaries: [String: SleepTimer.Boundary] = [
        "end-of-item": .endOfItem, "end-of-chapter": .endOfChapter,
    ]

    /// A level or a change of it (`N`, `+N`, `-N`), with its unit allowed after it.
    private static func level(_ word: String, unit: String) -> Double? {
        let number = word.hasSuffix(unit) ? String(word.dropLast(unit.count)) : word
        guard let level = Double(number.hasPrefix("+") ? String(number.dropFirst()) : number), level.isFinite
        else { return nil }
        return level
    }

    private func value(_ words: [String], _ positional: CLIPositional) throws(UsageError) -> JSONValue {
        let word = words[0]
        switch positional.kind {
        case .seconds:
            guard let seconds = TimeText.parse(word), seconds > 0 else {
                throw UsageError("\(verb.name): '\(word)' is not a positive number of seconds")
            }
            return .number(seconds)
        case .position:
            guard let seconds = TimeText.parse(word) else {
                throw UsageError("\(verb.name): '\(word)' is not a position (seconds, M:SS, H:MM:SS, +N or -N)")
            }
            return .number(seconds)
        case .paths:
            return .array(words.map { .string(absolute($0)) })
        case .number:
            return .number(try number(word))
        case .numbers:
            var numbers: [JSONValue] = []
            for word in words { numbers.append(.number(try number(word))) }
            return .array(numbers)
        case .band:
            guard let band = Int(word), band >= 1 else {
                throw UsageError("\(verb.name): '\(word)' is not a band number (1 is the first band)")
            }
            return .number(Double(band - 1))
        case .word, .presetOrFile:
            return .string(word)
        case .pathOrAll, .path:
            return .string(absolute(word))
        case .text:
            return .string(words.joined(separator: " "))
        case .words:
            return .array(words.map { .string($0) })
        case .filters:
            var filters: [JSONValue] = []
            for word in words { filters.append(try filter(word)) }
            return .array(filters)
        case .sleepTimer:
            guard let seconds = TimeText.duration(word) else {
                throw UsageError(
                    "\(verb.name): '\(word)' is not a time (30m, 45s, 1h30m, 90) nor end-of-item or end-of-chapter")
            }
            return .number(seconds)
        case .age:
            guard let seconds = TimeText.duration(word) else {
                throw UsageError("\(verb.name): '\(word)' is not an age (7d, 12h, 30m, 90)")
            }
            return .number((WallClock.now() - seconds).rounded(.down))
        case .commandName:
            guard CommandName(rawValue: word) != nil else {
                throw UsageError("\(verb.name): unknown command name '\(word)'")
            }
            return .string(word)
        case .volume:
            guard let level = Self.level(word, unit: "%") else {
                throw UsageError("\(verb.name): '\(word)' is not a volume (N, +N or -N, in %)")
            }
            return .number(level)
        case .rate:
            guard let rate = Self.level(word, unit: "x") else {
                throw UsageError("\(verb.name): '\(word)' is not a rate (N, +N or -N, as 1.5 or 1.5x)")
            }
            return .number(rate)
        case .queuePosition:
            var indices: [JSONValue] = []
            for word in words {
                guard let position = Int(word), position >= 1 else {
                    throw UsageError("\(verb.name): '\(word)' is not a queue position (1 is the first item)")
                }
                indices.append(.number(Double(position - 1)))
            }
            return positional.isVariadic ? .array(indices) : indices[0]
        case .count:
            guard let count = Int(word), count >= 1 else {
                throw UsageError("\(verb.name): '\(word)' is not a count (a whole number >= 1)")
            }
            return .number(Double(count))
        case .choice(let words):
            guard words.contains(word) else {
                throw UsageError("\(verb.name): '\(word)' is not one of \(words.joined(separator: ", "))")
            }
            return .string(word)
        }
    }

    /// `FIELD=VALUE` (equal to) or `FIELD~VALUE` (contains) as a library filter; a number
    /// field compares as a number (`year=1997`, `playCount=0`).
    private func filter(_ word: String) throws(UsageError) -> JSONValue {
        guard let separator = word.firstIndex(where: { $0 == "=" || $0 == "~" }) else {
            throw UsageError("\(verb.name): '\(word)' is not FIELD=VALUE or FIELD~VALUE")
        }
        let name = String(word[..<separator])
        let value = String(word[word.index(after: separator)...])
        guard let field = LibraryField.named(name) else {
            throw UsageError(
                "\(verb.name): unknown field '\(name)' (\(LibraryField.all.map(\.name).joined(separator: ", ")))")
        }
        let contains = word[separator] == "~"
        if field.kind == .number {
            guard !contains, let number = Double(value) else {
                throw UsageError("\(verb.name): \(name) takes a number: \(name)=N")
            }
            return .object([("field", .string(name)), ("op", .string("equalTo")), ("value", .number(number))])
        }
        return .object([
            ("field", .string(name)), ("op", .string(contains ? "contains" : "equalTo")), ("value", .string(value)),
        ])
    }

    private func number(_ word: String) throws(UsageError) -> Double {
        guard let number = Double(word), number.isFinite else {
            throw UsageError("\(verb.name): '\(word)' is not a number")
        }
        return number
    }

    /// `+N` skips forward, `-N` backward.
    private func relativeSeek(_ word: String) -> (command: String, seconds: Double)? {
        guard let sign = word.first, sign == "+" || sign == "-",
            let seconds = TimeText.parse(String(word.dropFirst())), seconds > 0
        else { return nil }
        return (sign == "+" ? CommandName.skipForward.rawValue : CommandName.skipBackward.rawValue, seconds)
    }

    /// `path` made absolute against the working directory; a URL (`http://…`) as it is.
    private func absolute(_ path: String) -> String {
        if StreamURL.hasScheme(path) { return path }
        let joined = path.hasPrefix("/") ? path : (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
        guard let resolved = realpath(joined, nil) else { return joined }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
