import ControlProtocol
import PlaybackModel
import SystemSupport

/// Everything a front end or a subsystem shows of the player, as one value: published with
/// every change (`Subsystem.publish`), so that no subsystem reads back into the service. A new
/// feature's state (chapters, a sleep timer) is one more field here.
struct PlayerView {
    /// The now-playing snapshot, with its position anchor `(elapsed, rate, timestamp)`.
    var nowPlaying: NowPlaying
    /// Which commands are enabled, and the skip intervals.
    var availability: CommandAvailability
    var equalizer: Equalizer
    /// Which ReplayGain applies (MPD's `replay_gain_status`).
    var replayGainMode: ReplayGainMode
    /// What resume saves, with the position at the snapshot's `timestamp`.
    var resume: ResumeState
    /// The music library's status (the daemon adds it; nil without a library).
    var library: LibraryStatus?
    /// Whether a long queue is still being read at start (`QueueLoading`): `resume` holds only
    /// its current item, and is not to be saved.
    var isLoading = false

    /// What resume saves at `time` (seconds since the epoch): the position extrapolated from
    /// the snapshot's anchor, as every client does.
    func resumeState(at time: Double) -> ResumeState {
        var state = resume
        if nowPlaying.item != nil { state.position = nowPlaying.position(at: time) }
        return state
    }

    /// The queue's items, in the order the user gave them.
    var queue: [QueueItem] { resume.items }

    /// Stopped with nothing queued.
    var isIdle: Bool { nowPlaying.state == .stopped && nowPlaying.queueCount == 0 }
}
