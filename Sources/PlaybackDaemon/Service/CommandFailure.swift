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
