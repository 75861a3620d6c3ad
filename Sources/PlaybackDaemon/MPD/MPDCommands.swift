import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

/// The commands of MPD's protocol that playbackd implements, each a translation into the
/// daemon's own commands or a reading of its view. What MPD has and playbackd does not is not
/// here: `commands` does not list it and it is answered `unknown command`, never a silent OK.
enum MPDCommands {
    static let all: [MPDCommand] = playback + modes + queue + information + library + storedPlaylists + stickers
    static let byName: [String: MPDCommand] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // MARK: Playback

    static let playback: [MPDCommand] = [
        MPDCommand("play", 0...1, .control) { context, arguments, reply in
            guard let position = arguments.first else { return context.run(.play, reply) }
            switch MPDArgument.integer(position) {
            case .failure(let error): reply(.failure(error))
            case .success(let index):
                guard index >= 0, index < context.view().queue.count else {
                    return reply(.failure(MPDError(.argument, "Bad song index")))
                }
                context.run([.jump(index: index), .play], reply)
            }
        },
        MPDCommand("playid", 0...1, .control) { context, arguments, reply in
            guard let id = arguments.first else { return context.run(.play, reply) }
            switch context.index(ofID: id) {
            case .failure(let error): reply(.failure(error))
            case .success(let index): context.run([.jump(index: index), .play], reply)
            }
        },
        MPDCommand("pause", 0...1, .control) { context, arguments, reply in
            guard let state = arguments.first else { return context.run(.togglePlayPause, reply) }
            switch MPDArgument.boolean(state) {
            case .failure(let error): reply(.failure(error))
            case .success(let pause): context.run(pause ? .pause : .play, reply)
            }
        },
        MPDCommand("stop", 0...0, .control) { context, _, reply in context.run(.stop, reply) },
        MPDCommand("next", 0...0, .control) { context, _, reply in context.run(.nextTrack, reply) },
        MPDCommand("previous", 0...0, .control) { context, _, reply in context.run(.previousTrack, reply) },
        MPDCommand("seek", 2...2, .control) { context, arguments, reply in
            switch (MPDArgument.integer(arguments[0]), MPDArgument.seconds(arguments[1])) {
            case (.failure(let error), _), (_, .failure(let error)): reply(.failure(error))
            case (.success(let index), .success(let seconds)):
                seek(context, index: index, to: seconds, reply)
            }
        },
        MPDCommand("seekid", 2...2, .control) { context, arguments, reply in
            switch (context.index(ofID: arguments[0]), MPDArgument.seconds(arguments[1])) {
            case (.failure(let error), _), (_, .failure(let error)): reply(.failure(error))
            case (.success(let index), .success(let seconds)): seek(context, index: index, to: seconds, reply)
            }
        },
        MPDCommand("seekcur", 1...1, .control) { context, arguments, reply in
            let text = arguments[0]
            switch MPDArgument.seconds(text) {
            case .failure(let error): reply(.failure(error))
            case .success(let seconds):
                if text.hasPrefix("+") {
                    context.run(.skipForward(interval: seconds), reply)
                } else if text.hasPrefix("-") {
                    context.run(.skipBackward(interval: -seconds), reply)
                } else {
                    context.run(.changePlaybackPosition(position: seconds), reply)
                }
            }
        },
    ]

    /// A priority of `prio` and `prioid`: 0 - 255.
    private static func priority(_ text: String) -> Result<UInt8, MPDError> {
        MPDArgument.unsigned(text, maximum: Int(UInt32.max)).flatMap { value in
            value <= 255 ? .success(UInt8(value)) : .failure(MPDError(.argument, "Priority out of range: \(text)"))
        }
    }

    /// `seek` and `seekid`: to the item (when it is not the current one) and the position.
    private static func seek(_ context: MPDContext, index: Int, to seconds: Double, _ reply: @escaping MPDReply) {
        let view = context.view()
        guard index >= 0, index < view.queue.count else {
            return reply(.failure(MPDError(.argument, "Bad song index")))
        }
        // Stopped, the seek starts playing (as MPD's does); paused, it stays paused.
        let stopped = view.nowPlaying.state == .stopped || view.nowPlaying.state == .interrupted
        let move: [PlayerCommand] =
            stopped ? [.jump(index: index), .play] : view.nowPlaying.queueIndex == index ? [] : [.jump(index: index)]
        context.run(move + [.changePlaybackPosition(position: max(0, seconds))], reply)
    }

    // MARK: Volume and modes

    static let modes: [MPDCommand] = [
        MPDCommand("setvol", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.integer(arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let volume):
                guard (0...100).contains(volume) else {
                    return reply(.failure(MPDError(.argument, "Invalid volume value")))
                }
                context.run(.changeVolume(.to(Double(volume))), reply)
            }
        },
        MPDCommand("volume", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.integer(arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let change):
                guard (-100...100).contains(change) else {
                    return reply(.failure(MPDError(.argument, "Invalid volume value")))
                }
                context.run(.changeVolume(.by(Double(change))), reply)
            }
        },
        MPDCommand("getvol", 0...0, .read) { context, _, reply in
            reply(.success(["volume: \(Int(context.view().nowPlaying.volume.rounded()))"]))
        },
        // MPD's repeat with single is playbackd's repeat-one (MPDModes).
        MPDCommand("repeat", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.boolean(arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let on):
                var modes = MPDModes(context.view().nowPlaying)
                modes.repeats = on
                context.run(modes.commands, reply)
            }
        },
        MPDCommand("single", 1...1, .control) { context, arguments, reply in
            switch MPDModes.mode(arguments[0], of: "single") as Result<SingleMode, MPDError> {
            case .failure(let error): reply(.failure(error))
            case .success(let single):
                var modes = MPDModes(context.view().nowPlaying)
                modes.single = single
                context.run(modes.commands, reply)
            }
        },
        MPDCommand("random", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.boolean(arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let on): context.run(.changeShuffleMode(on ? .items : .off), reply)
            }
        },
        // MPD's crossfade applies to every transition; here it turns on the mode last set (the
        // album-aware one unless a client chose another), and 0 turns it off.
        MPDCommand("crossfade", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.integer(arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let seconds):
                guard Crossfade.secondsRange.contains(Double(seconds)) else {
                    return reply(.failure(MPDError(.argument, "Crossfade must be 0 to 12 seconds")))
                }
                let modeOff = context.view().nowPlaying.crossfade.mode == .off
                context.run(
                    .setCrossfade(seconds: Double(seconds), mode: seconds > 0 && modeOff ? .albums : nil), reply)
            }
        },
        MPDCommand("consume", 1...1, .control) { context, arguments, reply in
            switch MPDModes.mode(arguments[0], of: "consume") as Result<ConsumeMode, MPDError> {
            case .failure(let error): reply(.failure(error))
            case .success(let consume): context.run(.changeConsumeMode(consume), reply)
            }
        },
    ]

    // MARK: The queue

    static let queue: [MPDCommand] = [
        MPDCommand("add", 1...2, .add) { context, arguments, reply in
            add(context, arguments, reply) { _ in [] }
        },
        MPDCommand("addid", 1...2, .add) { context, arguments, reply in
            add(context, arguments, reply) { added in added.first.map { ["Id: \($0)"] } ?? [] }
        },
        MPDCommand("delete", 1...1, .control) { context, arguments, reply in
            switch MPDArgument.range(arguments[0], count: context.view().queue.count) {
            case .failure(let error): reply(.failure(error))
            case .success(let range):
                guard !range.isEmpty else { return reply(.success([])) }
                context.run(.remove(index: range.lowerBound, count: range.count), reply)
            }
        },
        MPDCommand("deleteid", 1...1, .control) { context, arguments, reply in
            switch context.index(ofID: arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let index): context.run(.remove(index: index, count: 1), reply)
            }
        },
        MPDCommand("move", 2...2, .control) { context, arguments, reply in
            switch MPDArgument.range(arguments[0], count: context.view().queue.count) {
            case .failure(let error): reply(.failure(error))
            case .success(let range): move(context, range, to: arguments[1], reply)
            }
        },
        MPDCommand("moveid", 2...2, .control) { context, arguments, reply in
            switch context.index(ofID: arguments[0]) {
            case .failure(let error): reply(.failure(error))
            case .success(let from): move(context, from..<from + 1, to: arguments[1], reply)
            }
        },
        MPDCommand("swap", 2...2, .control) { context, arguments, reply in
            let count = context.view().queue.count
            let positions = arguments.map { text in
                MPDArgument.unsigned(text, maximum: Int(UInt32.max)).flatMap { index in
                    index < count ? .success(index) : .failure(MPDError(.argument, "Bad song index"))
                }
            }
            switch (positions[0], positions[1]) {
            case (.failure(let error), _), (_, .failure(let error)): reply(.failure(error))
            case (.success(let first), .success(let second)): swap(context, first, second, reply)
            }
        },
        MPDCommand("swapid", 2...2, .control) { context, arguments, reply in
            switch (context.index(ofID: arguments[0]), context.index(ofID: arguments[1])) {
            case (.failure(let error), _), (_, .failure(let error)): reply(.failure(error))
            case (.success(let first), .success(let second)): swap(context, first, second, reply)
            }
        },
        MPDCommand("shuffle", 0...1, .control) { context, arguments, reply in
            let count = context.view().queue.count
            switch arguments.first.map({ MPDArgument.range($0, count: count) }) ?? .success(0..<count) {
            case .failure(let error): reply(.failure(error))
            case .success(let range):
                guard range.count > 1 else { return reply(.success([])) }
                context.run(.shuffleQueue(index: range.lowerBound, count: range.count), reply)
            }
        },
        MPDCommand("prio", 2...Int.max, .control) { context, arguments, reply in
            let count = context.view().queue.count
            let ranges = arguments.dropFirst().map { MPDArgument.range($0, count: count) }
            switch (priority(arguments[0]), ranges.first { if case .failure = $0 { true } else { false } }) {
            case (.failure(let error), _), (_, .failure(let error)?): reply(.failure(error))
            case (.success(let priority), _):
                let indices = ranges.flatMap { (try? $0.get()).map(Array.init) ?? [] }
                context.run(.setPriority(priority, indices: indices), reply)
            }
        },
        MPDCommand("prioid", 2...Int.max, .control) { context, arguments, reply in
            let indices = arguments.dropFirst().map { context.index(ofID: $0) }
            switch (priority(arguments[0]), indices.first { if case .failure = $0 { true } else { false } }) {
            case (.failure(let error), _), (_, .failure(let error)?): reply(.failure(error))
            case (.success(let priority), _):
                context.run(.setPriority(priority, indices: indices.compactMap { try? $0.get() }), reply)
            }
        },
        MPDCommand("clear", 0...0, .control) { context, _, reply in context.run(.clear, reply) },
        MPDCommand("playlistinfo", 0...1, .read) { context, arguments, reply in
            let items = context.view().queue
            switch arguments.first.map({ MPDArgument.range($0, count: items.count) }) ?? .success(0..<items.count) {
            case .failure(let error): reply(.failure(error))
            case .success(let range): reply(.success(songs(items, range, context)))
            }
        },
        MPDCommand("playlistid", 0...1, .read) { context, arguments, reply in
            let items = context.view().queue
            guard let id = arguments.first else { return reply(.success(songs(items, 0..<items.count, context))) }
            switch context.index(ofID: id) {
            case .failure(let error): reply(.failure(error))
            case .success(let index): reply(.success(songs(items, index..<index + 1, context)))
            }
        },
        // The queue's changes since VERSION: every entry when it differs (playbackd keeps no
        // history of versions), none when it is the same.
        MPDCommand("plchanges", 1...2, .read) { context, arguments, reply in
            let items = context.view().queue
            let unchanged = UInt64(arguments[0]) == context.playlistVersion()
            reply(.success(unchanged ? [] : songs(items, 0..<items.count, context)))
        },
        MPDCommand("plchangesposid", 1...2, .read) { context, arguments, reply in
            let items = context.view().queue
            let unchanged = UInt64(arguments[0]) == context.playlistVersion()
            reply(
                .success(
                    unchanged ? [] : items.enumerated().flatMap { ["cpos: \($0.offset)", "Id: \($0.element.id)"] }))
        },
    ]

    /// `add` and `addid`: a URI (a file or folder of the library, an absolute path, a URL) at
    /// the end or before a position.
    private static func add(
        _ context: MPDContext, _ arguments: [String], _ reply: @escaping MPDReply,
        lines: @escaping ([UInt64]) -> [String]
    ) {
        guard let path = MPDSongFormat.path(ofURI: arguments[0], roots: context.roots) else {
            return reply(.failure(MPDError(.noExist, "No such directory")))
        }
        var placement = EnqueuePlacement.end
        if arguments.count == 2 {
            switch context.insertPosition(arguments[1]) {
            case .failure(let error): return reply(.failure(error))
            case .success(let index): placement = .index(index)
            }
        }
        context.perform(.enqueue(paths: [path], placement: placement, replace: false, play: false)) { result in
            switch result {
            case .success(.enqueued(let outcome)) where !outcome.added.isEmpty: reply(.success(lines(outcome.added)))
            case .success: reply(.failure(MPDError(.noExist, "No such song")))
            case .failure(let failure): reply(.failure(MPDError(.noExist, failure.message)))
            }
        }
    }

    /// `move` and `moveid`: the items of `range`, in order, to start at the destination `text`
    /// names, one item at a time.
    private static func move(_ context: MPDContext, _ range: Range<Int>, to text: String, _ reply: @escaping MPDReply) {
        let count = context.view().queue.count
        switch MPDArgument.moveDestination(text, moving: range, count: count, current: context.currentIndex) {
        case .failure(let error): reply(.failure(error))
        case .success(let to):
            let moves: [PlayerCommand] = (0..<range.count).map { offset in
                to <= range.lowerBound
                    ? .move(from: range.lowerBound + offset, to: to + offset)
                    : .move(from: range.lowerBound, to: to + range.count - 1)
            }
            context.run(moves, reply)
        }
    }

    /// `swap` and `swapid`: the two items change places (two moves).
    private static func swap(_ context: MPDContext, _ first: Int, _ second: Int, _ reply: @escaping MPDReply) {
        let (low, high) = (min(first, second), max(first, second))
        guard low != high else { return reply(.success([])) }
        context.run([.move(from: high, to: low), .move(from: low + 1, to: high)], reply)
    }

    private static func songs(_ items: [QueueItem], _ range: Range<Int>, _ context: MPDContext) -> [String] {
        range.flatMap { MPDSongFormat.lines(items[$0], position: $0, roots: context.roots, tags: context.tags) }
    }

    // MARK: Status and information

    static let information: [MPDCommand] = [
        MPDCommand("status", 0...0, .read) { context, _, reply in
            reply(
                .success(
                    MPDSongFormat.status(
                        context.view(), playlistVersion: context.playlistVersion(), updatingJob: context.updatingJob(),
                        now: WallClock.now())))
        },
        MPDCommand("currentsong", 0...0, .read) { context, _, reply in
            let playing = context.view().nowPlaying
            guard let item = playing.item else { return reply(.success([])) }
            reply(
                .success(
                    MPDSongFormat.lines(item, position: playing.queueIndex, roots: context.roots, tags: context.tags)))
        },
        MPDCommand("stats", 0...0, .read) { context, _, reply in
            let library = context.view().library
            var lines = [
                "artists: \(library?.artists ?? 0)", "albums: \(library?.albums ?? 0)", "songs: \(library?.songs ?? 0)",
                "uptime: \(Int(WallClock.now() - context.startedAt))",
            ]
            if let updated = library?.updatedAt { lines.append("db_update: \(Int(updated))") }
            reply(.success(lines))
        },
        MPDCommand("update", 0...1, .control) { context, arguments, reply in
            update(context, arguments, full: false, reply)
        },
        MPDCommand("rescan", 0...1, .control) { context, arguments, reply in
            update(context, arguments, full: true, reply)
        },
        // One output, the device: off, nothing plays (`setOutputEnabled`).
        MPDCommand("outputs", 0...0, .read) { context, _, reply in
            let enabled = context.view().nowPlaying.outputEnabled
            reply(
                .success([
                    "outputid: 0", "outputname: \(context.device)", "plugin: playbackd",
                    "outputenabled: \(enabled ? 1 : 0)",
                ]))
        },
        MPDCommand("enableoutput", 1...1, .admin) { context, arguments, reply in
            output(context, arguments[0], enabled: true, reply)
        },
        MPDCommand("disableoutput", 1...1, .admin) { context, arguments, reply in
            output(context, arguments[0], enabled: false, reply)
        },
        MPDCommand("toggleoutput", 1...1, .admin) { context, arguments, reply in
            output(context, arguments[0], enabled: nil, reply)
        },
        MPDCommand("urlhandlers", 0...0, .read) { _, _, reply in
            reply(.success(["handler: http://", "handler: https://"]))
        },
        MPDCommand("decoders", 0...0, .read) { _, _, reply in
            reply(
                .success(
                    AudioFileFormat.all.flatMap { format in
                        ["plugin: \(format.name)"] + format.extensions.sorted().map { "suffix: \($0)" }
                            + format.mimeTypes.map { "mime_type: \($0)" }
                    }))
        },
        MPDCommand("ping", 0...0, .none) { _, _, reply in reply(.success([])) },
        // One partition, MPD's default: playbackd has one queue and one device.
        MPDCommand("listpartitions", 0...0, .read) { _, _, reply in
            reply(.success(["partition: \(MPDSongFormat.partition)"]))
        },
        MPDCommand("partition", 1...1, .read) { _, arguments, reply in
            reply(
                arguments[0] == MPDSongFormat.partition
                    ? .success([]) : .failure(MPDError(.noExist, "partition does not exist")))
        },
        MPDCommand("replay_gain_status", 0...0, .read) { context, _, reply in
            reply(.success(["replay_gain_mode: \(context.view().replayGainMode.rawValue)"]))
        },
        MPDCommand("replay_gain_mode", 1...1, .control) { context, arguments, reply in
            guard let mode = ReplayGainMode(rawValue: arguments[0]) else {
                return reply(.failure(MPDError(.argument, "Unrecognized replay gain mode")))
            }
            context.run(.setReplayGainMode(mode), reply)
        },
    ]

    /// `enableoutput`, `disableoutput` and `toggleoutput` (`enabled` nil) of output `id`.
    private static func output(_ context: MPDContext, _ id: String, enabled: Bool?, _ reply: @escaping MPDReply) {
        switch MPDArgument.unsigned(id, maximum: Int(UInt32.max)) {
        case .failure(let error): reply(.failure(error))
        case .success(let id) where id != 0: reply(.failure(MPDError(.noExist, "No such audio output")))
        case .success: context.run(.setOutputEnabled(enabled), reply)
        }
    }

    private static func update(_ context: MPDContext, _ arguments: [String], full: Bool, _ reply: @escaping MPDReply) {
        let path = arguments.first.flatMap { $0.isEmpty ? nil : MPDSongFormat.path(ofURI: $0, roots: context.roots) }
        context.perform(.library(.update(path: path, full: full))) { result in
            switch result {
            case .success: reply(.success(["updating_db: \(context.updatingJob() ?? 1)"]))
            case .failure(let failure): reply(.failure(MPDError(failure)))
            }
        }
    }
}
