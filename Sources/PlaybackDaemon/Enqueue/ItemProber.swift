import CSystemShim
import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Checks files before they join the queue: each becomes a `QueueItem` with its tags, length
/// and artwork, or a rejection with the reason it cannot be played. Runs on the prober thread.
struct ItemProber {
    let openDecoder: AudioDecoderFactory
    let artwork: ArtworkStore
    /// Fetches a playlist by URL.
    var fetchPlaylist: @Sendable (_ url: String, _ maximumBytes: Int) throws(DecoderError) -> [UInt8] = EnqueueExpander
        .fetchesNothing

    /// Expands `paths` (directories, playlists) and probes every file found, in order. The
    /// items get consecutive ids reserved from `ids`.
    func probe(_ paths: [String], limit: Int, ids: ItemIDs) -> (items: [QueueItem], rejected: [Rejection]) {
        let (candidates, rejectedPaths) = EnqueueExpander(limit: limit, fetch: fetchPlaylist).expand(paths)
        var rejected = rejectedPaths
        var found: [(path: String, metadata: TrackMetadata)] = []
        found.reserveCapacity(candidates.count)
        for (candidate, result) in zip(candidates, probeInParallel(candidates)) {
            switch result {
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

    /// The covers of `items` again (each file's embedded picture written to the artwork
    /// directory, or a cover file beside it), by item id; an item whose file has none, or
    /// cannot be read, is left out. Each file is read once.
    func artwork(of items: [QueueItem]) -> [UInt64: String] {
        var byPath: [String: String?] = [:]
        var found: [UInt64: String] = [:]
        for item in items {
            let cover = byPath[item.path] ?? artwork(ofFile: item.path)
            byPath[item.path] = cover
            found[item.id] = cover
        }
        return found
    }

    private func artwork(ofFile path: String) -> String? {
        guard let decoder = try? openDecoder(DecoderRequest(path: path)) else { return nil }
        var folders = FolderCovers()
        return artwork.artwork(for: decoder.coverPicture(), beside: path, folders: &folders)
    }

    /// Probes `candidates`, results in their order, in parallel runs (`ParallelRuns`): probing
    /// is opening, reading and parsing each file, and the files are independent.
    private func probeInParallel(_ candidates: [EnqueueCandidate]) -> [Result<TrackMetadata, Rejection>] {
        ParallelRuns.map(candidates) { probe($0) }
    }

    private func probe(_ candidates: ArraySlice<EnqueueCandidate>) -> [Result<TrackMetadata, Rejection>] {
        var folders = FolderCovers()
        return candidates.map { probe($0, folders: &folders) }
    }

    private func probe(_ candidate: EnqueueCandidate, folders: inout FolderCovers) -> Result<TrackMetadata, Rejection> {
        let path = candidate.path
        do {
            let decoder = try openDecoder(DecoderRequest(path: path))
            // Only a live stream has no length.
            guard decoder.frameCount.map({ $0 > 0 }) ?? !decoder.metadata.isSeekable else {
                return .failure(Rejection(path: path, reason: "no audio frames"))
            }
            var metadata = decoder.metadata
            metadata.bitsPerSample = decoder.format.sampleFormat.bytes * 8
            // A playlist's title (#EXTINF, TitleN) stands in for a missing title tag (not for a
            // real one); for a live stream it is the station, until the stream names a title.
            if let title = candidate.title {
                if !metadata.isSeekable {
                    metadata.album = title
                    metadata.title = title
                } else if metadata.title == FileName.stem(StreamURL.isStream(path) ? StreamURL.lastSegment(path) : path)
                {
                    metadata.title = title
                }
            }
            metadata.artworkPath = artwork.artwork(for: decoder.coverPicture(), beside: path, folders: &folders)
            return .success(metadata)
        } catch {
            return .failure(Rejection(path: path, reason: error.description))
        }
    }
}
