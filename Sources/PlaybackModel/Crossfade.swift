/// The crossfade between items, as a value with its rules (docs/crossfade.md): how long an
/// overlap lasts, which transitions fade, and how long a skip's fade is.
public struct Crossfade: Sendable, Equatable {
    /// Which transitions fade.
    public enum Mode: String, CaseIterable, Sendable {
        /// None: every item follows gapless.
        case off
        /// Every transition between two items.
        case always
        /// Every one but between consecutive tracks of one album, which stay gapless.
        case albums
    }

    /// Seconds of overlap, `secondsRange`; 0: no crossfade.
    public var seconds: Double
    public var mode: Mode
    /// Seconds a skip (`nextTrack`, `previousTrack`, `jump`, `enqueue` with `play`) fades
    /// over, from the position heard, while crossfade is on; 0: a skip cuts.
    public var skipSeconds: Double

    public static let secondsRange = 0.0...12.0
    public static let skipSecondsRange = 0.0...5.0

    public init(seconds: Double = 0, mode: Mode = .albums, skipSeconds: Double = 1) {
        self.seconds = seconds
        self.mode = mode
        self.skipSeconds = skipSeconds
    }

    /// Whether any transition fades.
    public var isOn: Bool { mode != .off && seconds > 0 }

    /// Whether `next` fades in over the end of `previous`, played one after the other: never
    /// into the same item (repeat-one); in `albums` mode, not between consecutive tracks of
    /// one album (same album and album artist, the next track number, or track 1 of the next
    /// disc; a missing disc number counts as 1).
    public func fades(from previous: QueueItem, to next: QueueItem) -> Bool {
        guard isOn, previous.id != next.id else { return false }
        return mode == .always || !Self.follows(previous.metadata, with: next.metadata)
    }

    /// Whether `next` is the track after `previous` on one album.
    static func follows(_ previous: TrackMetadata, with next: TrackMetadata) -> Bool {
        guard previous.isSameAlbum(as: next), let before = previous.trackNumber, let after = next.trackNumber else {
            return false
        }
        let (discBefore, discAfter) = (previous.discNumber ?? 1, next.discNumber ?? 1)
        return (discAfter == discBefore && after == before + 1) || (discAfter == discBefore + 1 && after == 1)
    }
}
