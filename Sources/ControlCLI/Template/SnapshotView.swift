import ControlProtocol
import PlaybackModel

/// A now-playing snapshot as the daemon pushed it, decoded, and read at one instant: the
/// position is extrapolated from `(elapsed, rate, timestamp)` to `now`, clamped to the item.
public struct SnapshotView {
    public let nowPlaying: NowPlaying
    /// The snapshot as it arrived, for `--json`, which passes it on untouched.
    public let raw: JSONValue
    public let now: Double

    /// Decodes `snapshot`; throws when it is not a `nowPlaying` object.
    public init(_ snapshot: JSONValue, now: Double) throws(WireDecodingError) {
        nowPlaying = try NowPlaying(json: snapshot)
        raw = snapshot
        self.now = now
    }

    public var state: String { nowPlaying.state.rawValue }
    public var duration: Double? { nowPlaying.item?.metadata.duration }

    /// The position at `now`; nil when nothing is current.
    public var position: Double? { nowPlaying.item == nil ? nil : nowPlaying.position(at: now) }
}
