import PlaybackModel
import SystemSupport

/// The listening history's file written from outside the daemon, for `Scripts/bench` and the
/// tests through `playbackd-bench`: a backlog of listens, and the cost of one listen's durable
/// write.
@_spi(Benchmark) public enum HistoryBenchmark {
    /// Writes `count` listens to the history at `path` (created when missing), each its own
    /// durable transaction when `eachDurable`, else all in one; the seconds each write took,
    /// sorted. They began one a minute, from `start` (seconds since the epoch).
    public static func writeListens(path: String, count: Int, start: Double, eachDurable: Bool) throws -> [Double] {
        let database = try HistoryDatabase(path: path)
        let events = (0..<count).map { index -> PlayerEvent in
            var metadata = TrackMetadata(
                title: "Song \(index)", artist: "Backlog Artist", album: "Backlog Album", duration: 180,
                sampleRate: 44_100, channels: 2)
            metadata.trackNumber = index % 12 + 1
            let item = QueueItem(id: UInt64(index + 1), path: "/music/backlog/\(index).mp3", metadata: metadata)
            return .listened(item: item, began: start + Double(index) * 60)
        }
        guard eachDurable else {
            let began = WallClock.monotonic()
            try database.record(events)
            return [WallClock.monotonic() - began]
        }
        var seconds: [Double] = []
        for event in events {
            let began = WallClock.monotonic()
            try database.record([event])
            seconds.append(WallClock.monotonic() - began)
        }
        return seconds.sorted()
    }
}
