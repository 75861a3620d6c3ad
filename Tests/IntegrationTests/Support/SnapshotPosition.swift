import ControlProtocol
import Foundation
import PlaybackModel

/// Where a snapshot (a reply's or an event's `nowPlaying`) says playback is at `time` (seconds
/// since the epoch): decoded as `playbackctl` decodes it and extrapolated by the model's own
/// `NowPlaying.position(at:)`, the one place the daemon and its clients compute it. NaN when
/// the snapshot does not decode, so that any comparison with it fails.
func extrapolated(_ snapshot: JSONValue?, at time: Double = Date().timeIntervalSince1970) -> Double {
    guard let snapshot, let nowPlaying = try? NowPlaying(json: snapshot) else { return .nan }
    return nowPlaying.position(at: time)
}

/// `extrapolated(_:at:)` at a `Date`.
func extrapolated(_ snapshot: JSONValue?, at date: Date) -> Double {
    extrapolated(snapshot, at: date.timeIntervalSince1970)
}
