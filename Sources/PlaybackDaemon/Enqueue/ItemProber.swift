import PlaybackEngine
import PlaybackModel

/// Checks files before they join the queue: each becomes a `QueueItem` with its tags, length
/// and artwork, or a rejection with the reason it cannot be played. Runs on the prober thread.
struct ItemProber {
    let openDecoder: AudioDecoderFactory
    let artwork: ArtworkStore

    /// Expands `paths` (directories, playlists) and probes every file found, in order. The
    /// items get consecutive ids reserved from `ids`.
    func probe(_ paths: [String], limit: Int, ids: ItemIDs) -> (items: [QueueItem], rejected: [Rejection]) {
        let (candidates, rejectedPaths) = EnqueueExpander(limit: limit).expand(paths)
        var rejected = rejectedPaths
        var found: [(path: String, metadata: TrackMetadata)] = []
        found.reserveCapacity(candidates.count)
        var folders = FolderCovers()
        for candidate in candidates {
            switch probe(candidate, folders: &folders) {
            case .success(let metadata): found.append((candidate.path, metadata))
            case .failure(let rejection): rejected.append(rejection)
            }
        }
        let first = ids.reserve(found.count)
        let items = found.enumerated().map { offset, item in
            QueueItem(id: first + UInt64(offset), path: item.path, metadata: item.metadata)
        }
        return (items, rejected)
    }

    /// The cover of the file at `path` again (its embedded picture written to the artwork
    /// directory, or a cover file beside it); nil when there is none or it cannot be read.
    func artwork(of path: String) -> String? {
        guard let decoder = try? openDecoder(path) else { return nil }
        var folders = FolderCovers()
        return artwork.artwork(for: decoder.coverPicture(), beside: path, folders: &folders)
    }

    private func probe(_ candidate: EnqueueCandidate, folders: inout FolderCovers) -> Result<TrackMetadata, Rejection> {
        let path = candidate.path
        do {
            let decoder = try openDecoder(path)
            guard decoder.frameCount ?? 0 > 0 else { return .failure(Rejection(path: path, reason: "no audio frames")) }
            var metadata = decoder.metadata
            // A playlist's #EXTINF title stands in for a missing title tag (not for a real one).
            if let title = candidate.title, metadata.title == FileName.stem(path) { metadata.title = title }
            metadata.artworkPath = artwork.artwork(for: decoder.coverPicture(), beside: path, folders: &folders)
            return .success(metadata)
        } catch {
            return .failure(Rejection(path: path, reason: error.description))
        }
    }
}
