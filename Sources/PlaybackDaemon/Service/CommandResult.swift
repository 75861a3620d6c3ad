import ControlProtocol
import PlaybackModel

/// What a command did, in domain terms. `PlayerService` answers every command with one; each
/// front end (the socket's JSON replies, MPRIS's D-Bus replies) writes it in its own form.
enum CommandOutcome: Equatable {
    /// Carried out; nothing to report.
    case done
    /// Where a seek or skip landed, in seconds into the item.
    case position(Double)
    case nowPlaying(NowPlaying)
    case commands(CommandAvailability)
    case queuePage(QueuePage)
    case enqueued(EnqueueOutcome)
    /// The equalizer, and the preset names when asked for them.
    case equalizer(Equalizer, presets: [String]?)
    /// How many items `remove` took out, and how many are left.
    case removed(count: Int, queueCount: Int)
}

/// One page of the queue, in its own order.
struct QueuePage: Equatable {
    var currentIndex: Int?
    var count: Int
    var offset: Int
    var repeatMode: RepeatMode
    var shuffleMode: ShuffleMode
    var items: [QueueItem]
}

/// What an `enqueue` added and turned away.
struct EnqueueOutcome: Equatable {
    var added: [UInt64]
    var rejected: [Rejection]
    /// The queue's length after the enqueue; nil when it failed.
    var queueCount: Int?
}

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

typealias CommandResult = Result<CommandOutcome, CommandFailure>
