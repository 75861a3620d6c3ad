import PlaybackModel

/// A play or a skip of an item, for the library's statistics.
struct ListeningEvent: Equatable {
    enum Kind: Equatable {
        case played, skipped
    }

    var kind: Kind
    var path: String
    /// Seconds since the epoch.
    var time: Double
}

/// How plays and skips are counted, as iOS and Last.fm count them: an item heard up to half
/// its length or 4 minutes, whichever comes first, counts a play, once each time it is
/// listened to (a repeat, or coming back to it, is a new listen); an item left for another in
/// its first 30 s counts a skip. What is counted waits here until the library takes it.
struct ListeningCounter: Equatable {
    static let playSeconds = 240.0
    static let skipSeconds = 30.0

    /// The item whose play this listen has counted.
    private(set) var counted: UInt64?
    private(set) var pending: [ListeningEvent] = []

    /// Where in `item` a play counts; nil for a live stream (no length).
    static func playPosition(of item: QueueItem) -> Double? {
        item.metadata.duration > 0 ? min(item.metadata.duration / 2, playSeconds) : nil
    }

    /// When `item`'s play comes due, seen from `shown`: nil when it was counted, or while it is
    /// not heard advancing.
    func playDue(_ item: QueueItem, shown: NowPlaying) -> Double? {
        guard counted != item.id, shown.item?.id == item.id, shown.rate > 0,
            let position = Self.playPosition(of: item)
        else { return nil }
        return shown.time(reaching: position)
    }

    /// Counts `item`'s play at `now`, once a listen; whether it did.
    mutating func countPlay(_ item: QueueItem, now: Double) -> Bool {
        guard counted != item.id else { return false }
        counted = item.id
        pending.append(ListeningEvent(kind: .played, path: item.path, time: now))
        return true
    }

    /// `item` was left for another `seconds` into it: a skip when it was playing or paused
    /// (`started`), that early, and its play was not counted. A new listen begins either way.
    mutating func left(_ item: QueueItem, at seconds: Double, started: Bool, now: Double) -> Bool {
        defer { counted = nil }
        guard started, seconds < Self.skipSeconds, counted != item.id else { return false }
        pending.append(ListeningEvent(kind: .skipped, path: item.path, time: now))
        return true
    }

    /// An item began again, or another began by itself: a new listen.
    mutating func newListen() { counted = nil }

    /// What was counted since the last time, handed over.
    mutating func take() -> [ListeningEvent] {
        defer { pending = [] }
        return pending
    }
}
