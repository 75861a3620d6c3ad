#if canImport(Glibc)
    import Glibc
#endif

/// The threads of this process, by name, from `/proc/self/task`: the main thread first.
enum ProcessThreads {
    static func names() -> [String] {
        let main = String(getpid())
        let tasks = FileSystem.names(in: "/proc/self/task").sorted {
            ($0 == main ? 0 : 1, $0) < ($1 == main ? 0 : 1, $1)
        }
        // A thread that ended between the listing and the reading of its name is not running:
        // its name cannot be read any more, and it is not listed.
        return tasks.compactMap { task in
            guard let comm = try? FileSystem.readAll("/proc/self/task/\(task)/comm", maximumBytes: 64), !comm.isEmpty
            else { return nil }
            return String(decoding: comm.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
    }
}
