import ControlProtocol
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where an item's cover comes from: its embedded picture, written once per distinct image to
/// `$XDG_RUNTIME_DIR/playbackd/artwork/<content hash>.<ext>` (so bars, notifications and MPRIS
/// can open a file), else a `cover.jpg` or `folder.jpg` beside it.
struct ArtworkStore {
    let directory: String
    /// Larger pictures are not written (a tag can hold megabytes).
    static let maximumBytes = 16 << 20
    static let sideFiles = ["cover.jpg", "folder.jpg", "cover.png", "folder.png", "Cover.jpg", "Folder.jpg"]

    /// The artwork directory under `environment`: beside the control socket's default.
    static func defaultDirectory(environment: Environment) -> String {
        XDGDirectories.runtime(environment: environment) + "/artwork"
    }

    /// The cover's path for the file at `path`, or nil. `folders` remembers what was found
    /// beside earlier files; pass the same one for every file of one enqueue.
    func artwork(for picture: EmbeddedPicture?, beside path: String, folders: inout FolderCovers) -> String? {
        if let picture, let stored = store(picture) { return stored }
        if StreamURL.isStream(path) { return nil }  // no folder beside a URL
        return folders.cover(in: path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "")
    }

    /// Writes the picture unless a file with its hash exists; nil for an unknown type, an
    /// oversized picture, or a directory that cannot be written.
    private func store(_ picture: EmbeddedPicture) -> String? {
        guard let ext = Self.fileExtension(picture.mimeType), picture.data.count <= Self.maximumBytes else {
            return nil
        }
        let path = directory + "/" + Self.hash(picture.data) + "." + ext
        if access(path, F_OK) == 0 { return path }
        // The runtime directory is emptied at reboot anyway: atomic, not durable.
        return FileSystem.replace(path, with: picture.data, durable: false) == nil ? path : nil
    }

    /// `image/jpeg` → `jpg`, `image/png` → `png`, ...; ID3v2.2 gives `JPG`/`PNG` formats.
    static func fileExtension(_ mimeType: String) -> String? {
        switch mimeType.lowercased() {
        case "image/jpeg", "image/jpg", "jpg", "jpeg": "jpg"
        case "image/png", "png": "png"
        case "image/gif", "gif": "gif"
        case "image/webp": "webp"
        case "image/bmp", "bmp": "bmp"
        default: nil
        }
    }

    /// 64-bit FNV-1a of the bytes, in hex: names a picture by its content.
    static func hash(_ data: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Each folder's cover file (`ArtworkStore.sideFiles`), looked up once per folder rather than
/// once per file: an album of 20 files, or a directory of 10,000, asks the file system once.
struct FolderCovers {
    private var known: [String: String?] = [:]

    mutating func cover(in folder: String) -> String? {
        if let cover = known[folder] { return cover }
        let cover = ArtworkStore.sideFiles.lazy.map { folder + "/" + $0 }.first { access($0, R_OK) == 0 }
        known[folder] = .some(cover)
        return cover
    }
}
