/// The files a walk found against those the index holds under the walk's folder: which are
/// new or changed (a different size, modification time or inode), and which are gone.
///
/// An update with nothing changed compares 100,000 files. Each index row is matched with the
/// walked file of its inode (an integer key) and its path compared as bytes in SQLite's row, so
/// no string is made for a file that is where it was; only a row whose file moved, was
/// replaced (a new inode) or is gone becomes a string. The rows come from an index of just
/// these columns. At 100,000 songs this takes 50 ms where a dictionary of every indexed path
/// built from the table took 126.
struct LibraryComparison {
    /// The walked files to read: new ones, changed ones, every one when `full`.
    private(set) var toRead: [LibraryWalk.File] = []
    /// The indexed paths not walked.
    private(set) var gone: [String] = []
    /// How many files the index holds under the folder.
    private(set) var indexedCount = 0

    init(
        walked: WalkedFiles, under prefix: String?, full: Bool, database: SQLiteDatabase
    ) throws(SQLiteError) {
        var byInode = [Int64: Int](minimumCapacity: walked.count)
        for index in walked.indices where byInode[walked.identity(at: index).inode] == nil {
            byInode[walked.identity(at: index).inode] = index
        }
        var matched = [Bool](repeating: false, count: walked.count)
        var reads = [Bool](repeating: full, count: walked.count)
        // Rows not matched by inode and path, by path: a file replaced, moved, a hard link, gone.
        var unmatched: [String: LibraryFileIdentity] = [:]
        // From an index of exactly these columns (songs_identity), a tenth of the table's pages;
        // under a folder, only its range of that index.
        let sql = "SELECT path, size, mtime, inode FROM songs INDEXED BY songs_identity"
        let values: [SQLiteValue] = prefix.map { [.text($0)] } ?? []
        try database.forEachRow(sql + (prefix == nil ? "" : " WHERE path >= ?1 AND path < ?1 || char(1114111)"), values)
        {
            row in
            indexedCount += 1
            let identity = LibraryFileIdentity(
                size: Int64(row.int(1)), modified: Int64(row.int(2)), inode: Int64(row.int(3)))
            if let index = byInode[identity.inode], !matched[index],
                walked.withPath(at: index, { row.text(0, equals: $0) })
            {
                matched[index] = true
                if walked.identity(at: index) != identity { reads[index] = true }
            } else {
                unmatched[row.text(0)] = identity
            }
        }
        for index in walked.indices where !matched[index] {
            if unmatched.removeValue(forKey: walked.path(at: index)) != walked.identity(at: index) {
                reads[index] = true
            }
        }
        gone = Array(unmatched.keys)
        toRead = walked.indices.filter { reads[$0] }.map { walked[$0] }
    }
}
