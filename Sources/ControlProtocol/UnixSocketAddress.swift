#if canImport(Glibc)
    import Glibc
#endif

/// A filesystem Unix-domain socket address, shared by the daemon (bind) and clients (connect).
public struct UnixSocketAddress {
    private var storage = sockaddr_un()

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

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
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
