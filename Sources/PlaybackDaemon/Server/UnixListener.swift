import CSystemd
import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Why the control socket could not be set up.
struct ListenerError: Error, CustomStringConvertible {
    var description: String
}

/// The listening control socket: adopted from systemd (socket activation) or bound at `path`
/// in a 0700 directory with mode 0600.
struct UnixListener {
    let fd: Int32
    /// Nil when the socket came from systemd (the daemon must not unlink it).
    let boundPath: String?
    /// The socket file's inode when it was bound, to tell whether the path still leads to it.
    var boundInode: UInt64? = nil

    /// The name `playbackd.socket` gives its socket (`FileDescriptorName=`, default the unit's).
    static let socketNames: Set<String> = ["control", "playbackd.socket"]

    /// Uses the socket systemd passed (`PassedSockets`: the one named `control`, or the only
    /// one when the unit named none), else binds `path`.
    static func open(path: String) throws(ListenerError) -> UnixListener {
        let passed = PassedSockets.all
        let chosen =
            PassedSockets.named(socketNames).first
            ?? (passed.count == 1 && passed[0].name == "unknown" ? passed[0].fd : nil)
        if let chosen {
            guard sd_is_socket_unix(chosen, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
                throw ListenerError(description: "the socket systemd passed is not a listening Unix stream socket")
            }
            _ = fcntl(chosen, F_SETFL, fcntl(chosen, F_GETFL) | O_NONBLOCK)
            return UnixListener(fd: chosen, boundPath: nil)
        }
        return try bind(path: path)
    }

    /// Binds and listens under a temporary name beside `path`, then links it to `path`: a client
    /// that finds the file can connect (a socket bound but not yet listening refuses), and
    /// `link` fails rather than replace a socket another daemon put there meanwhile. A path too
    /// long for a sibling name is bound directly.
    static func bind(path: String) throws(ListenerError) -> UnixListener {
        try makePrivateDirectory(parentOf: path)
        try removeStaleSocket(path)
        let temporary = path + ".\(getpid())"
        let bindsBeside = UnixSocketAddress(path: temporary) != nil
        if bindsBeside { unlink(temporary) }  // left by a daemon of this pid that died starting
        let fd = try listeningSocket(at: bindsBeside ? temporary : path)
        if bindsBeside {
            let linked = link(temporary, path)
            let linkError = errno
            unlink(temporary)
            guard linked == 0 else {
                Glibc.close(fd)
                errno = linkError
                throw ListenerError(
                    description: linkError == EEXIST
                        ? "another playbackd is already listening on \(path)" : "cannot link \(path): \(errnoText)")
            }
        }
        var info = stat()
        return UnixListener(fd: fd, boundPath: path, boundInode: stat(path, &info) == 0 ? UInt64(info.st_ino) : nil)
    }

    /// A non-blocking socket bound at `path` (mode 0600) and listening. The mode is set after
    /// the bind, not through the umask: the umask is the whole process's, and a thread that
    /// creates a directory meanwhile would get one it cannot enter (two binds at once could
    /// even leave it set). Until the chmod the socket has the umask's mode, which lets no other
    /// user connect under the usual 022; the control socket checks the peer's user anyway.
    private static func listeningSocket(at path: String) throws(ListenerError) -> Int32 {
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ListenerError(description: "socket: \(errnoText)") }
        let address = try socketAddress(path)
        let bound = address.bind(fd)
        guard bound == 0 else {
            Glibc.close(fd)
            throw ListenerError(description: "cannot bind \(path): \(errnoText)")
        }
        chmod(path, 0o600)
        guard listen(fd, 32) == 0 else {
            Glibc.close(fd)
            unlink(path)
            throw ListenerError(description: "listen: \(errnoText)")
        }
        return fd
    }

    /// Whether clients still reach this socket by its path: false when the file (or its
    /// directory) was removed or replaced. A socket systemd passed is always reachable.
    var isReachableAtPath: Bool {
        guard let boundPath else { return true }
        var info = stat()
        return stat(boundPath, &info) == 0 && UInt64(info.st_ino) == boundInode
    }

    /// Closes the socket and removes its file.
    func close() {
        closeDescriptor()
        if let boundPath, isReachableAtPath { unlink(boundPath) }
    }

    /// Closes the socket, leaving whatever is at the path now.
    func closeDescriptor() { Glibc.close(fd) }

    static func socketAddress(_ path: String) throws(ListenerError) -> UnixSocketAddress {
        guard let address = UnixSocketAddress(path: path) else {
            throw ListenerError(description: "socket path is too long for a Unix socket: \(path)")
        }
        return address
    }

    private static func makePrivateDirectory(parentOf path: String) throws(ListenerError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw ListenerError(description: "cannot create \(directory): \(errnoText)")
        }
        // Not a symlink, ours, and writable by nobody else: a directory someone else made (in
        // /tmp, before we ran) would let them replace our socket with theirs.
        var info = stat()
        guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ListenerError(description: "\(directory) is not a directory (or is a symbolic link)")
        }
        // Ours or root's (as /tmp is): the owner of a directory may always replace what is in it.
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw ListenerError(description: "\(directory) belongs to uid \(info.st_uid), not to this user")
        }
        // Writable by nobody else, unless sticky (/tmp): then nobody else may remove or rename
        // what we put there.
        guard info.st_mode & 0o022 == 0 || info.st_mode & S_ISVTX != 0 else {
            throw ListenerError(
                description: "\(directory) is writable by others (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }

    /// A socket file left by a daemon that died is removed; a live daemon is an error.
    private static func removeStaleSocket(_ path: String) throws(ListenerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw ListenerError(description: "\(path) exists and is not a socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { Glibc.close(probe) }
        if try socketAddress(path).connect(probe) == 0 {
            throw ListenerError(description: "another playbackd is already listening on \(path)")
        }
        unlink(path)
    }
}

var errnoText: String { String(cString: strerror(errno)) }
