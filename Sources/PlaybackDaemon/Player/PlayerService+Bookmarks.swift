import ControlProtocol
import PlaybackModel
import SystemSupport

/// Bookmarks: a long item remembers where it was left whenever it stops being the current item
/// (a move to another item, a queue replaced or cleared, stop, exit) or pauses, every
/// `bookmarkInterval` while it plays (so a `kill -9` loses at most that much), and starts
/// there when it becomes current again (`PlayerState.startPosition`).
extension PlayerService {
    /// How often the position of a long item playing is saved.
    static let bookmarkInterval = 5.0

    /// Commands after which the current item may no longer be current, or starts over. (An
    /// enqueue that replaces or plays saves the bookmark when its probing is done, in
    /// `enqueueInBackground`.)
    static func mayLeaveItem(_ command: Command) -> Bool {
        switch command {
        case .stop, .nextTrack, .previousTrack, .jump, .clear, .remove, .nextChapter: true
        default: false
        }
    }

    /// Saves the current item's bookmark at the position heard now.
    func bookmarkCurrentItem() {
        guard let item = state.queue.current, listening.bookmarks.keepsBookmark(item) else { return }
        listening.bookmarks.record(item, at: item.metadata.seconds(atFrame: playedFrame()))
    }

    /// The item `id` was played to its end: it starts from its beginning next time.
    func itemFinished(_ id: UInt64) {
        guard let item = state.queue.items.first(where: { $0.id == id }) else { return }
        listening.bookmarks.record(item, at: item.metadata.duration)
    }

    /// Keeps saving the bookmark of a long item while it plays: armed when playback starts
    /// (not when the start is announced, which waits for the device) and after each save.
    func followBookmarks() {
        guard state.transport == .playing, let item = state.queue.current, listening.bookmarks.keepsBookmark(item)
        else {
            return listening.bookmarkTimer.cancel()
        }
        guard !listening.bookmarkTimer.isArmed else { return }
        listening.bookmarkTimer.arm(after: Self.bookmarkInterval) { [unowned self] in
            syncWithEngine()
            bookmarkCurrentItem()
            followBookmarks()
        }
    }

    func listBookmarks() -> CommandResult { .success(.bookmarks(listening.bookmarks.bookmarks)) }

    func forgetBookmarks(path: String?) -> CommandResult {
        guard let path else {
            _ = listening.bookmarks.forgetAll()
            return .success(.done)
        }
        guard listening.bookmarks.forget(path: path) else {
            return .failure(CommandFailure(.noSuchContent, "no bookmark for \(path)"))
        }
        return .success(.done)
    }
}
