import PlaybackModel

/// Something that happened in a step, as a value. A step's events go out with its changes and
/// the view after them, through the one `Subsystem.publish`, to every subsystem alike: what one
/// subscriber learns (the library's statistics, the route watch, a history to come) every
/// other could.
enum PlayerEvent: Equatable {
    /// `item` began to be heard at `began` (seconds since the epoch): a start, the next item
    /// reached by itself, or a repeat of it.
    case itemAudible(item: QueueItem, began: Double)
    /// The hearing of `item` that began at `began` counts as a listen from now (`ListenRule`).
    case listened(item: QueueItem, began: Double)
    /// An item stopped being heard (`HeardItem`: how long, and how it ended).
    case itemHeard(HeardItem)
    /// A pipeline's output thread opened the device, which turned out to be this one.
    case deviceOpened(OpenDevice)
    /// The device began to play what a pipeline wrote.
    case deviceStarted
    /// The device could not be opened, or failed while playing: what it said.
    case deviceFailed(String)
    /// A client connected to the control socket, or went: `count` are connected.
    case clientsConnected(Int)
}

/// One hearing of an item, when it ended: the item, when it began to be heard, how many of its
/// own seconds reached the device, and why it ended.
struct HeardItem: Equatable {
    /// Why a hearing ended.
    enum Ending: String, Equatable, Sendable {
        /// Its last frame was heard (and so for each pass of repeat-one).
        case finished
        /// Another item was chosen (next, previous, jump, a route's or a library's play).
        case skipped
        /// Playback stopped in it.
        case stopped
        /// It was removed from the queue (or the queue cleared).
        case removed
        /// The queue was replaced by other items.
        case replaced
    }

    var item: QueueItem
    /// Seconds since the epoch at which it became audible.
    var began: Double
    /// The item's own seconds heard: what a seek jumped over is not, a pause stops the count,
    /// at rate 2 a minute of the item is a minute heard.
    var seconds: Double
    var ending: Ending
    /// It counted as a listen (`ListenRule`).
    var isListen = false
    /// Part of it was heard in phrase mode or an A-B loop.
    var isPractice = false
}
