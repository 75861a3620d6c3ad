import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix-domain socket address, shared by the daemon (bind, systemd's notify socket) and
/// clients (connect): a file-system path, or a name in the abstract namespace.
public struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// Nil when `path` does not fit `sun_path` (107 bytes and a NUL).
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// An address as `$NOTIFY_SOCKET` gives it: a path, or `@name` for the abstract namespace
    /// (a leading NUL, and a length that counts exactly the name). Nil for anything else.
    public init?(notifySocket text: String) {
        guard text.hasPrefix(bytes: "@") else {
            guard text.hasPrefix(bytes: "/") else { return nil }
            self.init(path: text)
            return
        }
        var storage = sockaddr_un()
        let name = [0] + Array(text.utf8.dropFirst())
        guard name.count <= MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: name) }
        self.init(storage: storage, length: socklen_t(MemoryLayout<sa_family_t>.size + name.count))
    }

    private init(storage: sockaddr_un, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// `connect(2)` on `fd`; returns its result.
    public func connect(_ fd: Int32) -> Int32 {
        withSockaddr { Glibc.connect(fd, $0, $1) }
    }

    /// `bind(2)` on `fd`; returns its result.
    public func bind(_ fd: Int32) -> Int32 {
        withSockaddr { Glibc.bind(fd, $0, $1) }
    }
}
