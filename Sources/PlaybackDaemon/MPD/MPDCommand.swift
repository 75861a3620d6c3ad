import ControlProtocol
import PlaybackModel

/// What an MPD command runs against: the player's view and the daemon's one command handler,
/// as every front end has them.
struct MPDContext {
    let view: () -> PlayerView
    let perform: (Command, @escaping (CommandResult) -> Void) -> Void
    /// The library's folders: MPD's URIs are relative to them.
    let roots: [String]
    /// The output device's name (`outputs`).
    let device: String
    let playlistVersion: () -> UInt64
    /// The library scan running, as MPD numbers update jobs; nil when none runs.
    let updatingJob: () -> Int?
    /// When the daemon started (seconds since the epoch), for `stats`.
    let startedAt: Double
    /// The tags this connection asked for (`tagtypes`), in `MPDTag`'s order.
    var tags = MPDTag.allCases
    /// The protocol features this connection turned on (`protocol`, MPD 0.24).
    var features: Set<MPDProtocolFeature> = []
    /// The passwords and the levels before one.
    let access: MPDAccess
    /// The stored playlists; nil without a folder for them.
    let playlists: StoredPlaylists?
    /// Tells every connection's `idle` of a change this front end made itself (a stored
    /// playlist: the player publishes nothing for it).
    let changed: (Set<String>) -> Void

    /// Carries out `command`; the reply is empty lines or the failure as MPD reports it.
    func run(_ command: Command, _ reply: @escaping MPDReply) {
        perform(command) { result in reply(result.map { _ in [] }.mapError(MPDError.init)) }
    }

    /// Carries out an operation on the player's state: most of what MPD's commands ask.
    func run(_ command: PlayerCommand, _ reply: @escaping MPDReply) { run(.player(command), reply) }

    /// Carries out `commands` one after the other, stopping at the first failure.
    func run(_ commands: [PlayerCommand], _ reply: @escaping MPDReply) {
        guard let first = commands.first else { return reply(.success([])) }
        run(first) { result in
            guard case .success = result else { return reply(result) }
            run(Array(commands.dropFirst()), reply)
        }
    }

    /// The current item's place in the queue (MPD's current song, also while stopped).
    var currentIndex: Int? { view().nowPlaying.queueIndex }

    /// Where an insertion `text` names goes (`MPDArgument.insertPosition`).
    func insertPosition(_ text: String) -> Result<Int, MPDError> {
        MPDArgument.insertPosition(text, count: view().queue.count, current: currentIndex)
    }

    /// The queue index of the item with MPD id `id`.
    func index(ofID id: String) -> Result<Int, MPDError> {
        guard let number = UInt64(id) else { return .failure(MPDError(.argument, "Integer expected: \(id)")) }
        guard let index = view().queue.firstIndex(where: { $0.id == number }) else {
            return .failure(MPDError(.noExist, "No such song"))
        }
        return .success(index)
    }
}

/// A command's reply: its lines (without the final `OK`), or an error.
typealias MPDReply = (Result<[String], MPDError>) -> Void

/// One command of MPD's protocol that playbackd implements, declared once: `commands` lists it
/// and the session dispatches to it.
struct MPDCommand: Sendable {
    let name: String
    /// How many arguments it takes.
    let arguments: ClosedRange<Int>
    /// What a client must be allowed to run it (MPD's levels).
    let permission: MPDPermission
    let run: @Sendable (MPDContext, [String], @escaping MPDReply) -> Void

    init(
        _ name: String, _ arguments: ClosedRange<Int>, _ permission: MPDPermission,
        _ run: @escaping @Sendable (MPDContext, [String], @escaping MPDReply) -> Void
    ) {
        self.name = name
        self.arguments = arguments
        self.permission = permission
        self.run = run
    }
}

/// MPD's permission levels: what a client may do, anonymously or after `password`.
enum MPDPermission: String, CaseIterable, Sendable {
    /// Commands anyone may send (`ping`, `close`, `password`).
    case none
    case read, add, control, admin

    /// Levels from `mpd-password`'s and `mpd-default-permissions`' words (`read,add,control`).
    static func parse(_ text: String) -> Set<MPDPermission>? {
        var levels: Set<MPDPermission> = [.none]
        for word in text.split(separator: ",") {
            guard let level = MPDPermission(rawValue: String(word)), level != .none else { return nil }
            levels.insert(level)
        }
        return levels
    }
}

extension MPDError {
    /// A command's failure as MPD reports the like.
    init(_ failure: CommandFailure) {
        switch failure.status {
        case .noSuchContent: self.init(.noExist, failure.message)
        case .noActionableNowPlayingItem: self.init(.playerSync, "Not playing")
        case .badRequest: self.init(.argument, failure.message)
        case .success, .commandFailed, .commandDisabled, .deviceNotFound: self.init(.system, failure.message)
        }
    }
}

/// Arguments as MPD reads them, with its messages.
enum MPDArgument {
    static func integer(_ text: String) -> Result<Int, MPDError> {
        Int(text).map(Result.success) ?? .failure(MPDError(.argument, "Integer expected: \(text)"))
    }

    static func boolean(_ text: String) -> Result<Bool, MPDError> {
        switch text {
        case "0": .success(false)
        case "1": .success(true)
        default: .failure(MPDError(.argument, "Boolean (0/1) expected: \(text)"))
        }
    }

    static func seconds(_ text: String) -> Result<Double, MPDError> {
        guard let value = Double(text), value.isFinite else {
            return .failure(MPDError(.argument, "Float expected: \(text)"))
        }
        return .success(value)
    }

    /// A number from 0 to `maximum`, with MPD's messages.
    static func unsigned(_ text: String, maximum: Int) -> Result<Int, MPDError> {
        guard let value = UInt(text) else { return .failure(MPDError(.argument, "Integer expected: \(text)")) }
        guard value <= maximum else { return .failure(MPDError(.argument, "Number too large: \(text)")) }
        return .success(Int(value))
    }

    /// Where an insertion goes in a queue of `count` items (protocol 0.23): `N`, or `+N` after
    /// the current item, `-N` before it.
    static func insertPosition(_ text: String, count: Int, current: Int?) -> Result<Int, MPDError> {
        guard let sign = text.first, sign == "+" || sign == "-" else { return unsigned(text, maximum: count) }
        guard let current else { return .failure(MPDError(.playerSync, "No current song")) }
        let offset = String(text.dropFirst())
        return sign == "+"
            ? unsigned(offset, maximum: count - current - 1).map { current + 1 + $0 }
            : unsigned(offset, maximum: current).map { current - $0 }
    }

    /// Where the items of `range` start once moved (protocol 0.23): `N`, or `+N` after the
    /// current item, `-N` before it, counted as if `range` were out of the queue.
    static func moveDestination(_ text: String, moving range: Range<Int>, count: Int, current: Int?)
        -> Result<Int, MPDError>
    {
        let rest = count - range.count
        guard let sign = text.first, sign == "+" || sign == "-" else { return unsigned(text, maximum: rest) }
        guard var current else { return .failure(MPDError(.playerSync, "No current song")) }
        guard !range.contains(current) else {
            return .failure(MPDError(.argument, "Cannot move current song relative to itself"))
        }
        if current >= range.upperBound { current -= range.count }
        return unsigned(String(text.dropFirst()), maximum: rest - current).flatMap { offset in
            let destination = sign == "+" ? current + 1 + offset : current - offset
            return (0...rest).contains(destination)
                ? .success(destination) : .failure(MPDError(.argument, "Bad song index"))
        }
    }

    /// `N` (one position, which must be there) or `START:END` (END excluded, clipped to the
    /// queue; empty: to the end; START must be in the queue).
    static func range(_ text: String, count: Int) -> Result<Range<Int>, MPDError> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let start = Int(parts[0]), start >= 0 else {
            return .failure(MPDError(.argument, "Integer or range expected: \(text)"))
        }
        guard parts.count == 2 else {
            return start < count ? .success(start..<start + 1) : .failure(MPDError(.argument, "Bad song index"))
        }
        var end = count
        if !parts[1].isEmpty {
            guard let given = Int(parts[1]), given >= start else {
                return .failure(MPDError(.argument, "Integer or range expected: \(text)"))
            }
            end = min(given, count)
        }
        guard start < count || (start == 0 && count == 0) else { return .failure(MPDError(.argument, "Bad range")) }
        return .success(start..<max(start, end))
    }
}

/// Who may do what on MPD's protocol: the passwords and the levels before one is sent.
struct MPDAccess: Sendable {
    var passwords: [String: Set<MPDPermission>] = [:]
    var anonymous = Set(MPDPermission.allCases)

    init(passwords: [String] = [], defaultPermissions: String? = nil) {
        for entry in passwords {
            if let (password, levels) = Self.parse(password: entry) { self.passwords[password] = levels }
        }
        anonymous =
            defaultPermissions.flatMap(MPDPermission.parse)
            ?? (self.passwords.isEmpty ? Set(MPDPermission.allCases) : [.none, .read])
    }

    /// `PASSWORD@LEVELS`: the password (up to the last `@`) and its levels.
    static func parse(password entry: String) -> (String, Set<MPDPermission>)? {
        guard let at = entry.lastIndex(of: "@"), at != entry.startIndex,
            let levels = MPDPermission.parse(String(entry[entry.index(after: at)...]))
        else { return nil }
        return (String(entry[..<at]), levels)
    }
}

/// A protocol feature a connection turns on (`protocol`, MPD 0.24).
enum MPDProtocolFeature: String, CaseIterable, Sendable {
    /// The root's `lsinfo` does not list the stored playlists.
    case hidePlaylistsInRoot = "hide_playlists_in_root"
}
