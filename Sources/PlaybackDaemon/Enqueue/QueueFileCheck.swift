import PlaybackModel

/// What the file system says of queued items after a restart: whose file is gone, and whose
/// cover (extracted into the runtime directory, which a reboot empties) is. Checking a file
/// costs a system call, about 1 µs here.
struct QueueFileCheck {
    /// The items whose file is gone.
    private(set) var gone: [QueueItem] = []
    /// The items whose file is there and whose extracted cover is not.
    private(set) var lostArtwork: [QueueItem] = []

    init(_ items: some Sequence<QueueItem>, fileExists: (String) -> Bool) {
        for item in items {
            if !fileExists(item.path) {
                gone.append(item)
            } else if let artwork = item.metadata.artworkPath, !fileExists(artwork) {
                lostArtwork.append(item)
            }
        }
    }

    /// `items` with the identities of their files (how a bookmark follows a moved file), in
    /// the same order; a stream, or a file that cannot be read, is left as it was. Made on the
    /// prober's thread: giving an item its identity writes its record anew.
    static func identified(_ items: [QueueItem]) -> [QueueItem] {
        items.map { item in
            guard !StreamURL.isStream(item.path), let file = FileSystem.identity(of: item.path) else { return item }
            var identified = item
            identified.file = file
            return identified
        }
    }
}
