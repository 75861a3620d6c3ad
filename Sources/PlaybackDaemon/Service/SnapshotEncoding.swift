import ControlProtocol
import PlaybackModel

/// The now-playing snapshot as JSON text, serialized once per distinct snapshot: status bars
/// and scripts ask for it far more often than it changes, and a pushed snapshot is often the
/// next reply too. Paused or stopped a snapshot stays the same until a step changes it; while
/// playing, until the output thread measures the position again (each device period).
/// Event loop only.
final class SnapshotEncoding {
    private var last: (snapshot: NowPlaying, json: JSONValue)?

    /// `snapshot.json`, as text, serialized again only when `snapshot` tells something the last
    /// did not.
    func json(_ snapshot: NowPlaying) -> JSONValue {
        if let last, Self.tellsTheSame(last.snapshot, snapshot) { return last.json }
        let json = JSONValue.encoded(snapshot.json.serializedBytes)
        last = (snapshot, json)
        return json
    }

    /// Equal, or equal but for the timestamp at rate 0: a position that does not move is the
    /// same at any time (paused or stopped, every view is stamped with the time it was taken).
    static func tellsTheSame(_ a: NowPlaying, _ b: NowPlaying) -> Bool {
        guard a.rate == 0 && b.rate == 0 && a.timestamp != b.timestamp else { return a == b }
        var b = b
        b.timestamp = a.timestamp
        return a == b
    }
}
