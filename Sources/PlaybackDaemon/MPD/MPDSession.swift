import PlaybackEngine

/// One MPD client's conversation: command lists, `idle`, its tag types, and the changes it
/// has not been told of yet. It answers lines in order; a command that waits for the player
/// holds the lines after it. It writes through `send` and ends through `close`.
final class MPDSession {
    /// The version this front end greets with: the protocol changes up to 0.23.5 are those of
    /// the commands it implements (positions relative to the current song, `position` in
    /// `findadd` and `searchadd`, ranges in `playlistdelete`, the partition in `status`), and
    /// clients that need 0.23.5 (myMPD) accept it. What it lacks, `commands` does not list.
    static let greeting = "OK MPD 0.23.5\n"
    /// Every tag type MPD knows: `tagtypes enable` and `disable` take them (the ones playbackd
    /// does not read are simply never sent).
    static let knownTagTypes: Set<String> = [
        "artist", "artistsort", "album", "albumsort", "albumartist", "albumartistsort", "title", "titlesort", "track",
        "name", "genre", "mood", "date", "originaldate", "composer", "composersort", "performer", "conductor", "work",
        "ensemble", "movement", "movementnumber", "location", "grouping", "comment", "disc", "label",
        "musicbrainz_artistid", "musicbrainz_albumid", "musicbrainz_albumartistid", "musicbrainz_trackid",
        "musicbrainz_releasetrackid", "musicbrainz_workid",
    ]
    /// At most this many commands in one command list (MPD's default size, 2 MiB, is about as many lines).
    static let maximumListLength = 4096
    /// The idle events MPD names; changes are reported with these.
    static let idleEvents = [
        "database", "update", "stored_playlist", "playlist", "player", "mixer", "output", "options", "partition",
        "sticker", "subscription", "message", "neighbor", "mount",
    ]
    /// Commands the session answers itself (the rest are `MPDCommands`).
    static let ownCommands: [String: MPDPermission] = [
        "albumart": .read, "readpicture": .read, "binarylimit": .none, "close": .none, "command_list_begin": .none,
        "command_list_ok_begin": .none, "command_list_end": .none, "commands": .none, "idle": .read, "noidle": .read,
        "notcommands": .none, "password": .none, "tagtypes": .read, "protocol": .none,
    ]

    private var context: MPDContext
    private let write: ([UInt8]) -> Void
    /// The largest binary chunk a reply carries (`binarylimit`; MPD's default).
    private var binaryLimit = 8192
    /// The picture `readpicture` read last, and the URI it was asked for.
    private var lastPicture: (uri: String, picture: EmbeddedPicture?)?
    private let close: () -> Void
    /// A command list being received: whether each command's end is reported, and its lines.
    private var list: (withOK: Bool, lines: [MPDRequestLine])?
    /// `idle` waiting for one of these events (all of them when empty); nil when not idle.
    private var idling: Set<String>?
    /// Changes since the client was last told.
    private var pending: Set<String> = []
    /// A command is being carried out: the lines after it wait.
    private(set) var isBusy = false
    private var waitingLines: [String] = []

    /// What this connection may do: the anonymous levels, or a password's.
    private var allowed: Set<MPDPermission>

    init(context: MPDContext, write: @escaping ([UInt8]) -> Void, close: @escaping () -> Void) {
        self.context = context
        allowed = context.access.anonymous
        self.write = write
        self.close = close
    }

    /// Whether every line received has been answered.
    var isDone: Bool { !isBusy && waitingLines.isEmpty }

    /// Whether it waits in `idle` (MPD's timeout does not apply then).
    var isIdle: Bool { idling != nil }

    /// Subsystems that changed: told now when idle for one of them, else kept for the next `idle`.
    func changed(_ idleEvents: Set<String>) {
        pending.formUnion(idleEvents)
        if let wanted = idling { answerIdle(wanted) }
    }

    /// One line from the client.
    func receive(_ text: String) {
        if isBusy { return waitingLines.append(text) }
        if let wanted = idling {
            // Only noidle may come while idle; anything else ends the connection, as with MPD.
            guard text == "noidle" else { return close() }
            idling = nil
            let changes = pending.intersection(wanted.isEmpty ? Set(Self.idleEvents) : wanted)
            pending.subtract(changes)
            return send(changes.sorted().map { "changed: \($0)\n" }.joined() + "OK\n")
        }
        if var receiving = list {
            if text == "command_list_end" {
                list = nil
                return run(receiving.lines, withOK: receiving.withOK)
            }
            switch MPDRequestLine.parse(text) {
            case .failure(let error):
                list = nil
                return send(error.line(command: "", index: receiving.lines.count))
            case .success(let line):
                guard receiving.lines.count < Self.maximumListLength else {
                    list = nil
                    send(MPDError(.argument, "command list too long").line(command: "", index: receiving.lines.count))
                    return close()
                }
                receiving.lines.append(line)
                list = receiving
            }
            return
        }
        switch MPDRequestLine.parse(text) {
        case .failure(let error): send(error.line(command: "", index: 0))
        case .success(let line):
            if let level = Self.ownCommands[line.name], !allowed.contains(level) {
                return send(
                    MPDError(.permission, "you don't have permission for \"\(line.name)\"")
                        .line(command: line.name, index: 0))
            }
            switch line.name {
            case "command_list_begin", "command_list_ok_begin":
                list = (line.name == "command_list_ok_begin", [])
            case "idle":
                let wanted = Set(line.arguments)
                if let unknown = wanted.first(where: { !Self.idleEvents.contains($0) }) {
                    return send(
                        MPDError(.argument, "Unrecognized idle event: \(unknown)").line(command: "idle", index: 0))
                }
                idling = wanted
                answerIdle(wanted)
            case "noidle":
                return  // not idle: nothing to end, and MPD says nothing
            case "close":
                close()
            case "albumart":
                // Outside the command lists: its reply is binary.
                albumArt(line.arguments)
            case "readpicture":
                readPicture(line.arguments)
            default:
                run([line], withOK: false)
            }
        }
    }

    private func send(_ text: String) { write(Array(text.utf8)) }

    /// `albumart URI OFFSET`: a chunk of the cover file in the song's folder (MPD looks for
    /// the same files), `size:` the whole file's bytes.
    private func albumArt(_ arguments: [String]) {
        guard let offset = binaryOffset("albumart", arguments) else { return }
        guard let cover = MPDCover.bytes(forURI: arguments[0], roots: context.roots) else {
            return send(MPDError(.noExist, "No file exists").line(command: "albumart", index: 0))
        }
        sendChunk("albumart", of: cover, type: nil, from: offset)
    }

    /// `readpicture URI OFFSET`: a chunk of the picture in the song's own tags (the front
    /// cover, else the first), with its MIME type; only `OK` when it has none, as MPD answers.
    /// The last song's picture is kept, so a client reading it chunk by chunk opens it once.
    private func readPicture(_ arguments: [String]) {
        guard let offset = binaryOffset("readpicture", arguments) else { return }
        let uri = arguments[0]
        if lastPicture?.uri != uri {
            guard let path = MPDSongFormat.path(ofURI: uri, roots: context.roots), FileSystem.isRegularFile(path)
            else { return send(MPDError(.noExist, "No such file").line(command: "readpicture", index: 0)) }
            lastPicture = (uri, MPDCover.embedded(inFile: path))
        }
        guard let picture = lastPicture?.picture else { return send("OK\n") }
        sendChunk("readpicture", of: picture.data, type: picture.mimeType, from: offset)
    }

    /// The offset of a binary command's `URI OFFSET` arguments; nil after answering an error.
    private func binaryOffset(_ command: String, _ arguments: [String]) -> Int? {
        guard arguments.count == 2 else {
            send(MPDError(.argument, "wrong number of arguments for \"\(command)\"").line(command: command, index: 0))
            return nil
        }
        guard let offset = Int(arguments[1]), offset >= 0 else {
            send(MPDError(.argument, "Integer expected: \(arguments[1])").line(command: command, index: 0))
            return nil
        }
        return offset
    }

    /// `bytes` from `offset`, at most the binary limit: `size:`, `type:` when known, `binary:`.
    private func sendChunk(_ command: String, of bytes: [UInt8], type: String?, from offset: Int) {
        guard offset <= bytes.count else {
            return send(MPDError(.argument, "Bad file offset").line(command: command, index: 0))
        }
        let chunk = bytes[offset..<min(bytes.count, offset + binaryLimit)]
        let head = "size: \(bytes.count)\n" + (type.map { "type: \($0)\n" } ?? "") + "binary: \(chunk.count)\n"
        write(Array(head.utf8) + chunk + Array("\nOK\n".utf8))
    }

    private func answerIdle(_ wanted: Set<String>) {
        let changes = pending.intersection(wanted.isEmpty ? Set(Self.idleEvents) : wanted)
        guard !changes.isEmpty else { return }
        idling = nil
        pending.subtract(changes)
        send(changes.sorted().map { "changed: \($0)\n" }.joined() + "OK\n")
    }

    /// Runs `lines` in order: each command's lines (and `list_OK` in an OK list), then `OK`;
    /// the first failure ends the list with its `ACK`.
    private func run(_ lines: [MPDRequestLine], withOK: Bool, from index: Int = 0, output: String = "") {
        guard index < lines.count else {
            send(output + "OK\n")
            return resumeHeld()
        }
        let line = lines[index]
        isBusy = true
        execute(line) { [weak self] result in
            guard let self else { return }
            isBusy = false
            switch result {
            case .failure(let error):
                // An unknown command's name is in the message; the braces stay empty, as MPD's do.
                let known = MPDCommands.byName[line.name] != nil || Self.ownCommands[line.name] != nil
                send(output + error.line(command: known ? line.name : "", index: index))
                resumeHeld()
            case .success(let replyLines):
                // One string grown in place: a queue of 10,000 songs is 60,000 lines.
                var text = output
                text.reserveCapacity(output.utf8.count + replyLines.reduce(16) { $0 + $1.utf8.count + 1 })
                for replyLine in replyLines {
                    text += replyLine
                    text += "\n"
                }
                if withOK { text += "list_OK\n" }
                run(lines, withOK: withOK, from: index + 1, output: text)
            }
        }
    }

    private func resumeHeld() {
        while !isBusy, !waitingLines.isEmpty { receive(waitingLines.removeFirst()) }
    }

    private func execute(_ line: MPDRequestLine, _ reply: @escaping MPDReply) {
        if let level = Self.ownCommands[line.name], !allowed.contains(level) {
            return reply(.failure(MPDError(.permission, "you don't have permission for \"\(line.name)\"")))
        }
        switch line.name {
        case "commands", "notcommands":
            // What this connection may run, or what it may not (never what is not implemented).
            let names = (MPDCommands.all.map { ($0.name, $0.permission) } + Self.ownCommands.map { ($0.key, $0.value) })
                .filter { allowed.contains($0.1) == (line.name == "commands") }.map(\.0)
            return reply(.success(names.sorted().map { "command: \($0)" }))
        case "password":
            guard line.arguments.count == 1, let levels = context.access.passwords[line.arguments[0]] else {
                return reply(.failure(MPDError(.password, "incorrect password")))
            }
            allowed = levels
            return reply(.success([]))
        case "tagtypes":
            return reply(tagTypes(line.arguments))
        case "protocol":
            return reply(protocolFeatures(line.arguments))
        case "binarylimit":
            guard line.arguments.count == 1, let limit = Int(line.arguments[0]), limit >= 64 else {
                return reply(.failure(MPDError(.argument, "Value too small")))
            }
            binaryLimit = min(limit, 1 << 20)
            return reply(.success([]))
        case "albumart":
            return reply(.failure(MPDError(.argument, "albumart is not allowed in a command list")))
        case "idle", "noidle", "close", "command_list_begin", "command_list_ok_begin", "command_list_end":
            return reply(.failure(MPDError(.argument, "\(line.name) is not allowed in a command list")))
        default:
            break
        }
        guard let command = MPDCommands.byName[line.name] else {
            return reply(.failure(MPDError(.unknown, "unknown command \"\(line.name)\"")))
        }
        guard allowed.contains(command.permission) else {
            return reply(.failure(MPDError(.permission, "you don't have permission for \"\(line.name)\"")))
        }
        guard command.arguments.contains(line.arguments.count) else {
            let few = line.arguments.count < command.arguments.lowerBound
            return reply(.failure(MPDError(.argument, "too \(few ? "few" : "many") arguments for \"\(line.name)\"")))
        }
        command.run(context, line.arguments, reply)
    }

    /// `tagtypes`: the tags this connection gets, and `clear`, `all`, `enable` and `disable`.
    private func tagTypes(_ arguments: [String]) -> Result<[String], MPDError> {
        guard let verb = arguments.first else {
            return .success(context.tags.map { "tagtype: \($0.rawValue)" })
        }
        let named = arguments.dropFirst()
        var tags: [MPDTag] = []
        for name in named {
            guard Self.knownTagTypes.contains(name.lowercased()) else {
                return .failure(MPDError(.argument, "Unknown tag type: \(name)"))
            }
            if let tag = MPDTag.named(name) { tags.append(tag) }
        }
        switch verb {
        case "clear": context.tags = []
        case "all": context.tags = MPDTag.allCases
        case "available" where named.isEmpty: return .success(MPDTag.allCases.map { "tagtype: \($0.rawValue)" })
        case "reset" where !named.isEmpty: context.tags = MPDTag.allCases.filter { tags.contains($0) }
        case "enable" where !named.isEmpty:
            context.tags = MPDTag.allCases.filter { context.tags.contains($0) || tags.contains($0) }
        case "disable" where !named.isEmpty: context.tags.removeAll { tags.contains($0) }
        default: return .failure(MPDError(.argument, "Unknown sub command"))
        }
        return .success([])
    }

    /// `protocol` (MPD 0.24): the features this connection turned on, or a change of them.
    private func protocolFeatures(_ arguments: [String]) -> Result<[String], MPDError> {
        let lines = { (features: [MPDProtocolFeature]) in features.map { "feature: \($0.rawValue)" } }
        guard let verb = arguments.first else {
            return .success(lines(MPDProtocolFeature.allCases.filter(context.features.contains)))
        }
        let named = arguments.dropFirst()
        var features: Set<MPDProtocolFeature> = []
        for name in named {
            guard let feature = MPDProtocolFeature(rawValue: name) else {
                return .failure(MPDError(.argument, "Unknown protocol feature"))
            }
            features.insert(feature)
        }
        switch verb {
        case "all", "clear", "available":
            guard named.isEmpty else { return .failure(MPDError(.argument, "Too many arguments")) }
            if verb == "available" { return .success(lines(MPDProtocolFeature.allCases)) }
            context.features = verb == "all" ? Set(MPDProtocolFeature.allCases) : []
        case "enable", "disable":
            guard !named.isEmpty else { return .failure(MPDError(.argument, "Not enough arguments")) }
            if verb == "enable" { context.features.formUnion(features) } else { context.features.subtract(features) }
        default:
            return .failure(MPDError(.argument, "Unknown sub command"))
        }
        return .success([])
    }
}
