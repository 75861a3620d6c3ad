#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to standard output and error, shared by both executables (Swift 6
/// rejects the C `stderr` global).
public enum Console {
    /// Writes `text` to standard output; false when it is closed (the reader went away).
    @discardableResult public static func out(_ text: String) -> Bool { write(STDOUT_FILENO, text) }
    public static func error(_ text: String) { write(STDERR_FILENO, text) }

    @discardableResult private static func write(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
