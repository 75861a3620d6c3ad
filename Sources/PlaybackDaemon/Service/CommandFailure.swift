import ControlProtocol
import PlaybackModel

/// A command that was not carried out: the status every front end reports, and why.
struct CommandFailure: Error, Equatable {
    var status: CommandStatus
    var message: String
    /// What the command reports even though it failed (an enqueue's rejections).
    var outcome: CommandOutcome?

    init(_ status: CommandStatus, _ message: String, outcome: CommandOutcome? = nil) {
        self.status = status
        self.message = message
        self.outcome = outcome
    }
}

/// What the player answers every command with.
typealias CommandResult = Result<CommandOutcome, CommandFailure>

extension CommandFailure {
    /// A chapter command, or a sleep timer to the end of the chapter, for an item without
    /// chapters: the chapter commands are disabled for it, so each says so the same way.
    static let noChapters = CommandFailure(.commandDisabled, "the current item has no chapters")

    /// A seek command for a live stream, which has no position to move to.
    static let liveStream = CommandFailure(.commandDisabled, "the current item is a live stream")

    /// `play` while the output is off.
    static let outputDisabled = CommandFailure(
        .commandFailed, "the output is off: nothing plays until it is on again (playbackctl output on)")

    /// `name`, disabled by the configuration or a client (`because` is nil), or for the
    /// current item.
    static func disabled(_ name: CommandName, because reason: CommandFailure?) -> CommandFailure {
        CommandFailure(.commandDisabled, "\(name.rawValue) is disabled" + (reason.map { ": " + $0.message } ?? ""))
    }
}
