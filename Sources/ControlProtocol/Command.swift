import PlaybackModel

/// Wire names of every request, in the order they are documented.
public enum CommandName: String, CaseIterable, Sendable {
    case play, pause, togglePlayPause, stop, nextTrack, previousTrack
    case skipForward, skipBackward, changePlaybackPosition
    case enqueue, clear, queue, nowPlaying, commands, subscribe, setCommandEnabled
}

/// A request after validation: the typed form the player service acts on.
public enum Command: Sendable, Equatable {
    case play
    case pause
    case togglePlayPause
    case stop
    case nextTrack
    case previousTrack
    /// `interval` nil means the command's preferred interval.
    case skipForward(interval: Double?)
    case skipBackward(interval: Double?)
    case changePlaybackPosition(position: Double)
    case enqueue(paths: [String], replace: Bool, play: Bool)
    case clear
    case queue
    case nowPlaying
    case commands
    case subscribe
    case setCommandEnabled(CommandName, enabled: Bool)
}

/// One parsed request line: the optional client `id` to echo, and the command.
public struct Request: Sendable, Equatable {
    public var id: JSONValue?
    public var command: Command

    public init(id: JSONValue? = nil, command: Command) {
        self.id = id
        self.command = command
    }
}

extension Command {
    /// The wire name of this command.
    public var name: CommandName {
        switch self {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .skipForward: .skipForward
        case .skipBackward: .skipBackward
        case .changePlaybackPosition: .changePlaybackPosition
        case .enqueue: .enqueue
        case .clear: .clear
        case .queue: .queue
        case .nowPlaying: .nowPlaying
        case .commands: .commands
        case .subscribe: .subscribe
        case .setCommandEnabled: .setCommandEnabled
        }
    }
}
