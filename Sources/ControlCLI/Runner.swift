import ControlClient
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one `playbackctl` invocation: argv to request, reply to output, status to exit code.
public enum Runner {
    public static func run(_ arguments: [String], environment: Environment) -> Int32 {
        if arguments.first == SnapcastPlugin.verb {
            return SnapcastPlugin.run(Array(arguments.dropFirst()), environment: environment)
        }
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments, cwd: currentDirectory())
        } catch {
            Console.error("playbackctl: \(error)\nTry 'playbackctl --help'.\n")
            return ExitCode.usage
        }
        switch invocation.action {
        case .version:
            Console.out("playbackctl \(PlaybackdVersion.current)\n")
            return ExitCode.success
        case .completionScript(let shell):
            Console.out(CompletionScript.script(for: shell))
            return ExitCode.success
        case .completeFilter(let word):
            let path = SocketPath.resolve(explicit: invocation.socket, environment: environment)
            Console.out(LibraryCompletion.candidates(word, path: path).map { $0 + "\n" }.joined())
            return ExitCode.success
        case .manual:
            Console.out(ManualPage.text)
            return ExitCode.success
        case .help(let verb):
            guard let verb else { Console.out(HelpText.overview); return ExitCode.success }
            guard let text = HelpText.verb(verb) else {
                Console.error("playbackctl: unknown command '\(verb)'\n")
                return ExitCode.usage
            }
            Console.out(text)
            return ExitCode.success
        case .request(let cli):
            let (command, request, output) = (cli.command, cli.json, cli.output)
            let path = SocketPath.resolve(explicit: invocation.socket, environment: environment)
            if command == .subscribe {
                return WatchSession(
                    path: path, format: output.format, maxWidth: output.maxWidth, offlineText: output.offlineText
                ).run()
            }
            do {
                let client = try ControlClient(path: path)
                client.replyTimeout = invocation.replyTimeout(for: command)
                if command == .nowPlaying && output.format == .human && !invocation.json {
                    return try status(client, request, style: .standardOutput(environment: environment))
                }
                let reply = try client.request(request)
                if command == .nowPlaying, case .template = output.format, reply.isSuccess {
                    let view = try decoded { () throws(WireDecodingError) in
                        try SnapshotView(reply["nowPlaying"] ?? .null, now: WallClock.now())
                    }
                    Console.out(output.format.line(view, maxWidth: output.maxWidth) + "\n")
                    return ExitCode.success
                }
                let code = try report(command, replies: cli.replies, reply: reply, json: invocation.json)
                if command == .scrobbleLogin, code == ExitCode.success, !invocation.json,
                    reply["authorised"]?.boolValue == false, let token = reply["token"]?.stringValue,
                    let service = request["service"]?.stringValue
                {
                    return try ScrobbleLoginWait(client: client, service: service, token: token).follow()
                }
                guard cli.waits, code == ExitCode.success else { return code }
                return try LibraryProgress(
                    path: path, isTerminal: isatty(STDOUT_FILENO) == 1, followsAnalysis: command == .libraryAnalyze
                ).follow()
            } catch {
                Console.error("playbackctl: \(error)\n")
                switch error {
                case .daemonNotRunning: return ExitCode.daemonNotRunning
                case .noReply: return ExitCode.noReply
                default: return ExitCode.protocolError
                }
            }
        }
    }

    /// The human status: `nowPlaying` and `commands` (for the skip intervals) pipelined in one
    /// round trip; the intervals are left out when that second request fails.
    private static func status(
        _ client: ControlClient, _ request: JSONValue, style: TerminalStyle
    ) throws(ClientError) -> Int32 {
        let replies = try client.pipelined([request, .object([("command", .string(CommandName.commands.rawValue))])])
        guard let reply = replies.first, reply.isSuccess else {
            return try report(.nowPlaying, replies: .nowPlaying, reply: replies.first ?? .object([]), json: false)
        }
        let nowPlaying = try decoded { () throws(WireDecodingError) in
            try NowPlaying(json: reply["nowPlaying"] ?? .null)
        }
        var commands: CommandAvailability?
        if replies.count > 1, replies[1].isSuccess,
            case .commands(let availability)? = try? outcome(.commands, replies[1])
        {
            commands = availability
        }
        Console.out(HumanOutput.status(nowPlaying, commands: commands, now: WallClock.now(), style: style))
        return ExitCode.success
    }

    /// A reply that does not decode is a malformed reply (exit 9), like one that is not JSON.
    private static func decoded<Value>(_ body: () throws(WireDecodingError) -> Value) throws(ClientError) -> Value {
        do { return try body() } catch { throw .malformedReply(error.description) }
    }

    /// A successful reply whose command replies with `kind`, as that type.
    private static func outcome(_ kind: CommandOutcome.Kind, _ reply: JSONValue) throws(ClientError) -> CommandOutcome {
        try decoded { () throws(WireDecodingError) in try CommandOutcome(json: reply, kind: kind) }
    }

    private static func report(
        _ command: CommandName, replies kind: CommandOutcome.Kind, reply: JSONValue, json: Bool
    ) throws(ClientError) -> Int32 {
        guard let statusText = reply["status"]?.stringValue, let status = CommandStatus(rawValue: statusText) else {
            Console.error("playbackctl: malformed reply: \(reply.serialized)\n")
            return ExitCode.protocolError
        }
        if json {
            Console.out(reply.serialized + "\n")
        } else {
            if status == .success { Console.out(HumanOutput.render(try outcome(kind, reply))) }
            if command == .enqueue {
                let enqueued = try decoded { () throws(WireDecodingError) in try EnqueueOutcome(json: reply) }
                Console.error(HumanOutput.rejections(enqueued))
            }
            if status != .success {
                Console.error("playbackctl: \(reply["message"]?.stringValue ?? statusText) (\(statusText))\n")
            }
        }
        return status.exitCode
    }

    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }
}

extension JSONValue {
    var isSuccess: Bool { self["status"]?.stringValue == CommandStatus.success.rawValue }
}
