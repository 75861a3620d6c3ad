/// What counts as a listen, the rule ListenBrainz and Last.fm document: the item is at least
/// 30 s long, and the seconds of it heard (`Hearing`) reach half its length or 4 minutes,
/// whichever comes first. A live stream (no length) never counts here.
enum ListenRule {
    /// The shortest item that can count.
    static let shortestItem = 30.0
    /// The most seconds a listen needs, however long the item.
    static let mostSecondsNeeded = 240.0

    /// The seconds of an item `duration` long that must be heard; nil when it never counts.
    static func secondsNeeded(duration: Double) -> Double? {
        guard duration >= shortestItem else { return nil }
        return min(duration / 2, mostSecondsNeeded)
    }

    /// Whether `seconds` heard of an item `duration` long count.
    static func counts(seconds: Double, duration: Double) -> Bool {
        secondsNeeded(duration: duration).map { seconds >= $0 - tolerance } ?? false
    }

    /// A deadline is met when the device has played within this of it (the wall clock and
    /// the device's run apart by milliseconds).
    static let tolerance = 0.01
}
