/// Where listening stopped in a long item (`playbackctl bookmarks`): the file, what it is,
/// the position it starts from next time, and when that was saved.
public struct Bookmark: Sendable, Equatable {
    /// Absolute path of the file, where it was last played (or its http(s) URL).
    public var path: String
    public var title: String
    /// Seconds into the item.
    public var position: Double
    public var duration: Double
    /// Seconds since the Unix epoch.
    public var saved: Double

    public init(path: String, title: String, position: Double, duration: Double, saved: Double) {
        self.path = path
        self.title = title
        self.position = position
        self.duration = duration
        self.saved = saved
    }
}
