import PlaybackEngine
import PlaybackModel

/// Checks paths before they join the queue: each becomes a `QueueItem` with its tags and
/// length, or a reason it cannot be played.
struct ItemProber {
    let openDecoder: AudioDecoderFactory
    let artwork: ArtworkStore

    /// One rejected path and why.
    struct Rejection {
        var path: String
        var reason: String
    }

    func probe(_ paths: [String], firstID: UInt64) -> (items: [QueueItem], rejected: [Rejection]) {
        var items: [QueueItem] = []
        var rejected: [Rejection] = []
        for path in paths {
            guard path.hasPrefix("/") else {
                rejected.append(Rejection(path: path, reason: "path must be absolute"))
                continue
            }
            do {
                let decoder = try openDecoder(path)
                guard decoder.frameCount ?? 0 > 0 else {
                    rejected.append(Rejection(path: path, reason: "no audio frames"))
                    continue
                }
                var metadata = decoder.metadata
                metadata.artworkPath = artwork.artwork(for: decoder.coverPicture(), beside: path)
                items.append(QueueItem(id: firstID + UInt64(items.count), path: path, metadata: metadata))
            } catch {
                rejected.append(Rejection(path: path, reason: error.description))
            }
        }
        return (items, rejected)
    }
}
