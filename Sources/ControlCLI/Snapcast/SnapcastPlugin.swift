import ControlClient
import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `playbackctl snapcast-plugin` (also run as `playbackd-snapcast`): a Snapcast 0.26 stream
/// plugin. snapserver starts it as `PATH --stream=ID --snapcast-port=PORT` and speaks
/// newline-delimited JSON-RPC 2.0 on its standard input and output; the plugin answers
/// `Plugin.Stream.Player.Control`, `...SetProperty` and `...GetProperties` with playbackd's
/// commands and snapshot, and forwards every change playbackd pushes as
/// `Plugin.Stream.Player.Properties`. It never polls: it waits in `poll` for snapserver or
/// playbackd. While playbackd is away it reports `stopped` and connects again with a growing
/// delay (0.1 s doubling to 2 s).
public final class SnapcastPlugin {
    let socketPath: String
    private var input: [UInt8] = []
    private var events: ControlClient?
    private var requests: ControlClient?
    private var nowPlaying: NowPlaying?
    private var availability: CommandAvailability?
    /// What the metadata last sent described.
    private var sentMetadata: MetadataKey?
    private var retryDelay = SnapcastPlugin.firstRetryDelay
    static let firstRetryDelay = 0.1
    static let lastRetryDelay = 2.0

    public init(socketPath: String) { self.socketPath = socketPath }

    /// Runs until snapserver closes standard input; returns the exit code.
    public func run() -> Int32 {
        guard send(.object([("jsonrpc", .string("2.0")), ("method", .string("Plugin.Stream.Ready"))])) else {
            return ExitCode.success
        }
        connect()
        while true {
            var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            if let events { descriptors.append(pollfd(fd: events.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let timeout = events == nil ? Int32(retryDelay * 1000) : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && events == nil {
                retryDelay = min(Self.lastRetryDelay, retryDelay * 2)
                connect()
                continue
            }
            if descriptors[0].revents != 0 {
                guard readInput() else { return ExitCode.success }
            }
            if descriptors.count > 1 && descriptors[1].revents != 0 { takeEvents() }
        }
    }

    // MARK: - playbackd

    /// Subscribes on one connection and keeps another for commands; on success reports the
    /// snapshot with its metadata.
    private func connect() {
        do throws(ClientError) {
            let subscription = try ControlClient(path: socketPath)
            let reply = try subscription.request(.object([("command", .string(CommandName.subscribe.rawValue))]))
            let commands = try ControlClient(path: socketPath)
            commands.replyTimeout = 5
            guard let first = reply["nowPlaying"], let snapshot = try? NowPlaying(json: first) else {
                throw ClientError.malformedReply("no nowPlaying in the subscription's reply")
            }
            events = subscription
            requests = commands
            nowPlaying = snapshot
            retryDelay = Self.firstRetryDelay
            refreshAvailability()
            notifyProperties()
        } catch {
            disconnected()
        }
    }

    private func disconnected() {
        let wasConnected = events != nil || sentMetadata != nil
        events = nil
        requests = nil
        nowPlaying = nil
        availability = nil
        sentMetadata = nil
        if wasConnected || retryDelay == Self.firstRetryDelay { notifyProperties() }
    }

    private func refreshAvailability() {
        guard let requests, let reply = try? requests.request(.object([("command", .string("commands"))])),
            let list = reply["commands"]?.arrayValue
        else { return }
        availability = try? CommandAvailability(json: list)
    }

    /// Every event playbackd has pushed, then one notification for them all.
    private func takeEvents() {
        guard let events else { return }
        do throws(ClientError) {
            var changed = false
            while let event = try events.readLine(timeout: 0) {
                guard let json = event["nowPlaying"], let snapshot = try? NowPlaying(json: json) else { continue }
                nowPlaying = snapshot
                if event["changes"]?.arrayValue?.contains(.string("commands")) == true { refreshAvailability() }
                changed = true
            }
            if changed { notifyProperties() }
        } catch {
            disconnected()
        }
    }

    private func notifyProperties() {
        _ = send(
            .object([
                ("jsonrpc", .string("2.0")), ("method", .string("Plugin.Stream.Player.Properties")),
                ("params", properties(forcingMetadata: false)),
            ]))
    }

    /// The properties now, with the metadata when it changed since it was last sent (or
    /// always, for `GetProperties`).
    private func properties(forcingMetadata: Bool) -> JSONValue {
        let key = nowPlaying.map { MetadataKey($0.item) }
        var metadata: JSONValue?
        if let nowPlaying, forcingMetadata || key != sentMetadata {
            metadata = SnapcastProperties.metadata(nowPlaying.item, cover: cover(of: nowPlaying.item))
            sentMetadata = key
        }
        return SnapcastProperties.json(
            nowPlaying, availability: availability, now: WallClock.now(), metadata: metadata)
    }

    /// The cover file's bytes, up to 4 MiB.
    private func cover(of item: QueueItem?) -> [UInt8]? {
        guard let path = item?.metadata.artworkPath else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= 4 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes.isEmpty || bytes.count > 4 << 20 ? nil : bytes
    }

    // MARK: - snapserver

    /// Reads what snapserver sent and answers each complete line; false at its end.
    private func readInput() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        guard count > 0 else { return false }
        input += chunk[..<count]
        while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
            let line = input[..<newline]
            input.removeSubrange(...newline)
            if !line.isEmpty { answer(line) }
        }
        if input.count > ProtocolLimits.maximumLineBytes { input.removeAll() }
        return true
    }

    private func answer(_ line: ArraySlice<UInt8>) {
        guard let request = try? JSONParser.parse(line), request["method"] != nil else {
            return reply(id: .null, error: (-32700, "not a JSON-RPC request"))
        }
        let id = request["id"] ?? .null
        guard let method = request["method"]?.stringValue else {
            return reply(id: id, error: (-32600, "method is not a string"))
        }
        switch method {
        case "Plugin.Stream.Player.GetProperties":
            send(result: properties(forcingMetadata: true), id: id)
        case "Plugin.Stream.Player.Control", "Plugin.Stream.Player.SetProperty":
            let params = request["params"] ?? .object([])
            let commands: [JSONValue]
            switch method == "Plugin.Stream.Player.Control" ? control(params) : setProperty(params) {
            case .success(let made): commands = made
            case .failure(let problem): return reply(id: id, error: (-32602, problem.message))
            }
            perform(commands, id: id)
        default:
            reply(id: id, error: (-32601, "unknown method '\(method)'"))
        }
    }

    private func perform(_ commands: [JSONValue], id: JSONValue) {
        guard let requests else { return reply(id: id, error: (-32000, "playbackd is not running")) }
        for command in commands {
            do throws(ClientError) {
                let answer = try requests.request(command)
                guard answer["status"]?.stringValue == CommandStatus.success.rawValue else {
                    let status = answer["status"]?.stringValue ?? "?"
                    return reply(id: id, error: (-32000, "\(status): \(answer["message"]?.stringValue ?? "")"))
                }
            } catch {
                disconnected()
                return reply(id: id, error: (-32000, "\(error)"))
            }
        }
        send(result: .string("ok"), id: id)
    }

    private struct Problem: Error { let message: String }

    /// `Plugin.Stream.Player.Control`'s command as playbackd's requests.
    private func control(_ params: JSONValue) -> Result<[JSONValue], Problem> {
        let arguments = params["params"]
        let command = { (name: CommandName, members: [(String, JSONValue)]) -> [JSONValue] in
            [.object([("command", .string(name.rawValue))] + members)]
        }
        switch params["command"]?.stringValue {
        case "play": return .success(command(.play, []))
        case "pause": return .success(command(.pause, []))
        case "playPause": return .success(command(.togglePlayPause, []))
        case "stop": return .success(command(.stop, []))
        case "next": return .success(command(.nextTrack, []))
        case "previous": return .success(command(.previousTrack, []))
        case "seek":
            guard let offset = arguments?["offset"]?.numberValue, offset.isFinite else {
                return .failure(Problem(message: "seek needs a number offset"))
            }
            let now = nowPlaying.map { SnapcastProperties.position($0, now: WallClock.now()) } ?? 0
            return .success(command(.changePlaybackPosition, [("position", .number(max(0, now + offset)))]))
        case "setPosition":
            guard let position = arguments?["position"]?.numberValue, position.isFinite, position >= 0 else {
                return .failure(Problem(message: "setPosition needs a position of 0 or more"))
            }
            return .success(command(.changePlaybackPosition, [("position", .number(position))]))
        case let other:
            return .failure(Problem(message: "unknown command '\(other ?? "(none)")'"))
        }
    }

    /// `Plugin.Stream.Player.SetProperty`'s properties as playbackd's requests.
    private func setProperty(_ params: JSONValue) -> Result<[JSONValue], Problem> {
        guard let members = params.objectMembers, !members.isEmpty else {
            return .failure(Problem(message: "expected an object of properties"))
        }
        var commands: [JSONValue] = []
        for (name, value) in members {
            let request: (CommandName, String, JSONValue)
            switch (name, value) {
            case ("loopStatus", .string(let status)):
                let modes = ["none": "off", "track": "one", "playlist": "all"]
                guard let mode = modes[status] else {
                    return .failure(Problem(message: "loopStatus '\(status)': expected none, track or playlist"))
                }
                request = (.changeRepeatMode, "mode", .string(mode))
            case ("shuffle", .bool(let on)):
                request = (.changeShuffleMode, "mode", .string(on ? "items" : "off"))
            case ("volume", .number(let volume)):
                request = (.changeVolume, "volume", .number(volume))
            case ("rate", .number(let rate)):
                request = (.changePlaybackRate, "rate", .number(rate))
            default:
                return .failure(Problem(message: "property '\(name)' with \(value.typeName) is not supported"))
            }
            commands.append(.object([("command", .string(request.0.rawValue)), (request.1, request.2)]))
        }
        return .success(commands)
    }

    private func send(result: JSONValue, id: JSONValue) {
        _ = send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    private func reply(id: JSONValue, error: (code: Int, message: String)) {
        _ = send(
            .object([
                ("jsonrpc", .string("2.0")), ("id", id),
                ("error", .object([("code", .number(Double(error.code))), ("message", .string(error.message))])),
            ]))
    }

    /// One line to snapserver; false when it has gone.
    @discardableResult
    private func send(_ message: JSONValue) -> Bool {
        Console.out(message.serialized + "\n")
    }
}

/// What a metadata notification described: sent again only when this changes.
private struct MetadataKey: Equatable {
    var id: UInt64?
    var title: String?
    var artist: String?
    var album: String?
    var duration: Double?
    var artwork: String?

    init(_ item: QueueItem?) {
        id = item?.id
        title = item?.metadata.title
        artist = item?.metadata.artist
        album = item?.metadata.album
        duration = item?.metadata.duration
        artwork = item?.metadata.artworkPath
    }
}

extension SnapcastPlugin {
    /// The first word that runs the plugin instead of a request.
    public static let verb = "snapcast-plugin"

    static let usage = """
        usage: playbackctl snapcast-plugin [--socket PATH] [--stream=ID] [--snapcast-port=PORT]
               (as snapserver runs it: playbackd-snapcast --stream=ID --snapcast-port=PORT)
        Snapcast's stream plugin for playbackd: JSON-RPC on standard input and output (docs/multiroom.md).

        """

    /// Reads the plugin's arguments (snapserver's `--stream` and `--snapcast-port` are taken
    /// and not needed) and runs it.
    static func run(_ arguments: [String], environment: Environment) -> Int32 {
        var socket: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                Console.out(usage)
                return ExitCode.success
            case "--socket":
                guard index + 1 < arguments.count else {
                    Console.error("playbackctl: --socket needs a path\n" + usage)
                    return ExitCode.usage
                }
                socket = arguments[index + 1]
                index += 1
            case _ where argument.hasPrefix("--socket="):
                socket = String(argument.dropFirst("--socket=".count))
            case _ where argument.hasPrefix("--stream=") || argument.hasPrefix("--snapcast-port="):
                break
            default:
                Console.error("playbackctl: snapcast-plugin: unknown argument '\(argument)'\n" + usage)
                return ExitCode.usage
            }
            index += 1
        }
        return SnapcastPlugin(socketPath: SocketPath.resolve(explicit: socket, environment: environment)).run()
    }
}
