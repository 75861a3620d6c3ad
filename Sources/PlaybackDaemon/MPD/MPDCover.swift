import PlaybackEngine

/// The cover file of a song's folder, as MPD's `albumart` finds it: the first of
/// `ArtworkStore.sideFiles` there (a URI of a folder looks in that folder); and the picture in
/// a song's tags, for `readpicture`.
enum MPDCover {
    /// The largest cover sent.
    static let maximumBytes = 32 << 20

    static func bytes(forURI uri: String, roots: [String]) -> [UInt8]? {
        guard let path = MPDSongFormat.path(ofURI: uri, roots: roots) else { return nil }
        let folder = FileSystem.isDirectory(path) ? path : String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        for name in ArtworkStore.sideFiles {
            if let bytes = try? FileSystem.readAll(folder + "/" + name, maximumBytes: maximumBytes) { return bytes }
        }
        return nil
    }

    /// The front cover in `path`'s tags, else its first picture; nil when it has none or
    /// cannot be read as audio.
    static func embedded(inFile path: String) -> EmbeddedPicture? {
        (try? AudioFileFormat.open(path, readsPictures: true))?.coverPicture()
    }
}
