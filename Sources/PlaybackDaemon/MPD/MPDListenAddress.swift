#if canImport(Glibc)
    import Glibc
#endif

/// Where MPD's protocol is served (`mpd-listen`): a TCP address or a Unix socket path.
enum MPDListenAddress: Equatable {
    /// `host:port` (`[::1]:6600` for IPv6); port 0 lets the kernel choose.
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    struct Problem: Error, Equatable {
        var message: String
    }

    static func parse(_ text: String) -> Result<MPDListenAddress, Problem> {
        if text.hasPrefix("/") { return .success(.unix(path: text)) }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return .failure(Problem(message: "'\(text)' is neither host:port nor an absolute socket path"))
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return .failure(Problem(message: "'\(text)' names no host (0.0.0.0 is every one)")) }
        return .success(.tcp(host: host, port: port))
    }

    /// A listening, non-blocking, close-on-exec socket, and the address as bound (the port the
    /// kernel chose).
    func listen() -> Result<(fd: Int32, bound: String), Problem> {
        switch self {
        case .unix(let path):
            do throws(ListenerError) {
                let listener = try UnixListener.bind(path: path)
                return .success((listener.fd, path))
            } catch {
                return .failure(Problem(message: error.description))
            }
        case .tcp(let host, let port):
            return listenTCP(host: host, port: port)
        }
    }

    private func listenTCP(host: String, port: UInt16) -> Result<(fd: Int32, bound: String), Problem> {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            return .failure(Problem(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(found) }
        let fd = socket(
            first.pointee.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(Problem(message: "socket: \(String(cString: strerror(errno)))")) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, Glibc.listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(Problem(message: "cannot listen on \(host):\(port): \(reason)"))
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort = withUnsafeMutablePointer(to: &address) { pointer -> UInt16 in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return .success((fd, "\(shownHost):\(boundPort)"))
    }
}
