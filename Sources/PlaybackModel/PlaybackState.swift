/// The player's transport state, as reported in now-playing snapshots.
///
/// `interrupted` is the state after the output device failed or vanished: the item and the
/// position are kept, and `play` tries the device again (the iOS audio-session interruption idea).
public enum PlaybackState: String, Sendable, CaseIterable, Equatable {
    case playing
    case paused
    case stopped
    case interrupted
}
