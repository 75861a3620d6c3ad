import PlaybackModel

/// A play or a skip of a song, for the library's statistics, read from the hearings a step
/// reports, so that the library counts what the listening history records: a play is a
/// listen (`ListenRule`), dated when the hearing began (its `listenedAt`); a skip is a hearing
/// left for another item before `skipSeconds` of it were heard, that never counted as a listen.
struct SongStatistic: Equatable {
    enum Kind: Equatable {
        case played, skipped
    }

    /// Heard for less than this when left for another: a skip.
    static let skipSeconds = 30.0

    var kind: Kind
    var path: String
    /// Seconds since the epoch.
    var time: Double

    /// What `event` counts, if anything.
    init?(_ event: PlayerEvent) {
        switch event {
        case .listened(let item, let began):
            self.init(kind: .played, path: item.path, time: began)
        case .itemHeard(let heard)
        where heard.ending == .skipped && !heard.isListen && heard.seconds < Self.skipSeconds:
            self.init(kind: .skipped, path: heard.item.path, time: heard.began)
        default:
            return nil
        }
    }

    init(kind: Kind, path: String, time: Double) {
        self.kind = kind
        self.path = path
        self.time = time
    }
}
