import ControlClient
import ControlProtocol
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// Runs one `playbackctl` invocation: argv to request, reply to output, status to exit code.
public enum Runner {
    public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
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
        case .help(let verb):
            guard let verb else { Console.out(HelpText.overview); return ExitCode.success }
            guard let text = HelpText.verb(verb) else {
                Console.error("playbackctl: unknown command '\(verb)'\n")
                return ExitCode.usage
            }
            Console.out(text)
            return ExitCode.success
        case .request(let verb, let request):
            let path = SocketPath.resolve(explicit: invocation.socket, environment: environment)
            do {
                let client = try ControlClient(path: path)
                if verb == "watch" { return try watch(client, request, json: invocation.json) }
                return report(verb: verb, reply: try client.request(request), json: invocation.json)
            } catch {
                Console.error("playbackctl: \(error)\n")
                if case .daemonNotRunning = error { return ExitCode.daemonNotRunning }
                return ExitCode.protocolError
            }
        }
    }

    private static func report(verb: String, reply: JSONValue, json: Bool) -> Int32 {
        guard let statusText = reply["status"]?.stringValue, let status = CommandStatus(rawValue: statusText) else {
            Console.error("playbackctl: malformed reply: \(reply.serialized)\n")
            return ExitCode.protocolError
        }
        if json {
            Console.out(reply.serialized + "\n")
        } else {
            if status == .success { Console.out(HumanOutput.render(verb: verb, reply: reply, now: WallClock.now())) }
            Console.error(HumanOutput.rejections(reply))
            if status != .success {
                Console.error("playbackctl: \(reply["message"]?.stringValue ?? statusText) (\(statusText))\n")
            }
        }
        return status.exitCode
    }

    /// Prints the first snapshot and then one line per pushed change, until the daemon goes away.
    private static func watch(_ client: ControlClient, _ request: JSONValue, json: Bool) throws(ClientError) -> Int32 {
        let reply = try client.request(request)
        guard reply["status"]?.stringValue == CommandStatus.success.rawValue, let first = reply["nowPlaying"] else {
            return report(verb: "watch", reply: reply, json: json)
        }
        printWatchLine(first, json: json)
        while true {
            do {
                guard let event = try client.readLine(timeout: nil), let nowPlaying = event["nowPlaying"] else {
                    continue
                }
                printWatchLine(nowPlaying, json: json)
            } catch {
                Console.error("playbackctl: \(error)\n")
                return ExitCode.daemonNotRunning
            }
        }
    }

    private static func printWatchLine(_ nowPlaying: JSONValue, json: Bool) {
        if json {
            Console.out(nowPlaying.serialized + "\n")
        } else {
            Console.out(
                HumanOutput.status(nowPlaying, now: WallClock.now()).split(separator: "\n").joined(separator: " | ")
                    + "\n")
        }
    }

    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

}
