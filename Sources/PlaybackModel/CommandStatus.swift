/// The closed set of statuses a request can answer with on the wire.
///
/// The first five are Apple's `MPRemoteCommandHandlerStatus`; `commandDisabled` and
/// `badRequest` are protocol-level. Internal errors map to one of these (plus a human message)
/// at the server edge only. Each status owns the `playbackctl` exit code that reports it, so the
/// CLI and `docs/cli.md` follow from this one declaration.
public enum CommandStatus: String, Sendable, CaseIterable, Equatable {
    case success
    case noSuchContent
    case noActionableNowPlayingItem
    case deviceNotFound
    case commandFailed
    case commandDisabled
    case badRequest

    /// The process exit code `playbackctl` uses for a reply with this status.
    public var exitCode: Int32 {
        switch self {
        case .success: 0
        case .commandFailed: 1
        case .noSuchContent: 3
        case .noActionableNowPlayingItem: 4
        case .deviceNotFound: 5
        case .commandDisabled: 6
        case .badRequest: 7
        }
    }

    /// What the status means, for help texts and documentation.
    public var summary: String {
        switch self {
        case .success: "The command was carried out."
        case .noSuchContent: "The content named does not exist or cannot be played."
        case .noActionableNowPlayingItem: "There is no current item for the command to act on."
        case .deviceNotFound:
            "Apple's status, not answered: no reply waits for the device; one that cannot be opened or goes away shows as the state `interrupted` with `deviceError`."
        case .commandFailed: "The command was valid but failed (e.g. a preset that cannot be written)."
        case .commandDisabled: "The command is disabled."
        case .badRequest: "The request was malformed: bad JSON, unknown command, wrong argument."
        }
    }
}
