/// The files a walk found, in order, kept in three arrays rather than as a string and an
/// object per file: every path is a range of one byte array, and every folder's cover is an
/// index into a list of covers. An update with nothing changed walks 100,000 files on two
/// threads, and a string per file made the threads wait on each other for malloc's one arena
/// (`futex` was 15% of perf's samples). A `LibraryWalk.File`, with its path as a string, is
/// made only when one is read through the collection's subscript: for a file that is new or
/// changed.
struct WalkedFiles: RandomAccessCollection {
    private struct Entry {
        var pathStart: Int
        var pathEnd: Int
        var identity: LibraryFileIdentity
        /// Its folder's cover in `covers`, or -1.
        var cover: Int32
    }

    private var pathBytes: [UInt8] = []
    private var entries: [Entry] = []
    private var covers: [String] = []

    init() {}

    init(_ files: [LibraryWalk.File]) {
        for file in files {
            let cover = addCover(file.folderCover)
            var path = file.path
            path.withUTF8 { append(path: $0, name: EmptyCollection(), file.identity, cover: cover) }
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { entries.count }

    subscript(index: Int) -> LibraryWalk.File {
        let entry = entries[index]
        return LibraryWalk.File(
            path: path(at: index), identity: entry.identity,
            folderCover: entry.cover < 0 ? nil : covers[Int(entry.cover)])
    }

    func identity(at index: Int) -> LibraryFileIdentity { entries[index].identity }

    func path(at index: Int) -> String {
        withPath(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The path's UTF-8 bytes, without a string made.
    func withPath<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        return pathBytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[entry.pathStart..<entry.pathEnd]))
        }
    }

    mutating func reserveCapacity(_ count: Int, pathBytes bytes: Int) {
        entries.reserveCapacity(count)
        pathBytes.reserveCapacity(bytes)
    }

    /// The index of `cover` for the files appended after it (-1 for none).
    mutating func addCover(_ cover: String?) -> Int32 {
        guard let cover else { return -1 }
        if covers.last != cover { covers.append(cover) }
        return Int32(covers.count - 1)
    }

    /// The bytes of every path.
    var pathByteCount: Int { pathBytes.count }

    /// Appends the file at `folder` followed by `name` (either may be empty).
    mutating func append(
        path folder: some Collection<UInt8>, name: some Collection<UInt8>, _ identity: LibraryFileIdentity,
        cover: Int32
    ) {
        let start = pathBytes.count
        pathBytes.append(contentsOf: folder)
        pathBytes.append(contentsOf: name)
        entries.append(Entry(pathStart: start, pathEnd: pathBytes.count, identity: identity, cover: cover))
    }

    /// Appends the files of `other` in `range` for which `keep` holds.
    mutating func append(
        contentsOf other: WalkedFiles, _ range: Range<Int>, where keep: ((LibraryWalk.File) -> Bool)? = nil
    ) {
        var coverIndex: [Int32: Int32] = [:]
        for index in range {
            if let keep, !keep(other[index]) { continue }
            let entry = other.entries[index]
            var cover: Int32 = -1
            if entry.cover >= 0 {
                cover = coverIndex[entry.cover] ?? addCover(other.covers[Int(entry.cover)])
                coverIndex[entry.cover] = cover
            }
            other.withPath(at: index) {
                append(path: $0, name: EmptyCollection(), entry.identity, cover: cover)
            }
        }
    }
}
