import PlaybackModel

/// Wire names of every request, in the order they are documented.
public enum CommandName: String, CaseIterable, Sendable {
    case play, pause, togglePlayPause, stop, nextTrack, previousTrack
    case skipForward, skipBackward, changePlaybackPosition
    case changeRepeatMode, changeShuffleMode, changeVolume
    case enqueue, remove, move, jump, clear, queue, nowPlaying, commands, subscribe, setCommandEnabled
}

/// Where `enqueue` puts its items.
public enum EnqueuePlacement: Sendable, Equatable {
    /// After the last item.
    case end
    /// Right after the current item (and next in a shuffled order): "play next".
    case next
    /// Before the item at this index (the queue's length appends).
    case index(Int)
}

/// What `changeVolume` asks for, in percent.
public enum VolumeChange: Sendable, Equatable {
    /// To this level, 0 - 100.
    case to(Double)
    /// Up (positive) or down by this many points, clamped to 0 - 100.
    case by(Double)
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
    case changeRepeatMode(RepeatMode)
    case changeShuffleMode(ShuffleMode)
    case changeVolume(VolumeChange)
    case enqueue(paths: [String], placement: EnqueuePlacement, replace: Bool, play: Bool)
    /// Removes `count` items starting at `index`.
    case remove(index: Int, count: Int)
    case move(from: Int, to: Int)
    case jump(index: Int)
    case clear
    /// A page of the queue: `limit` items from `offset`.
    case queue(offset: Int, limit: Int)
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
        case .changeRepeatMode: .changeRepeatMode
        case .changeShuffleMode: .changeShuffleMode
        case .changeVolume: .changeVolume
        case .enqueue: .enqueue
        case .remove: .remove
        case .move: .move
        case .jump: .jump
        case .clear: .clear
        case .queue: .queue
        case .nowPlaying: .nowPlaying
        case .commands: .commands
        case .subscribe: .subscribe
        case .setCommandEnabled: .setCommandEnabled
        }
    }
}
