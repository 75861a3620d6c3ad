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

    /// The identity of each file of `items` (how a bookmark follows a moved file), by item id.
    static func identities(of items: [QueueItem]) -> [UInt64: FileIdentity] {
        var identities: [UInt64: FileIdentity] = [:]
        for item in items where !StreamURL.isStream(item.path) {
            identities[item.id] = FileSystem.identity(of: item.path)
        }
        return identities
    }
}
