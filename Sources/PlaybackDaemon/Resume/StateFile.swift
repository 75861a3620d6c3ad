import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The resume state on disk: `$STATE_DIRECTORY/state.json` under systemd, else
/// `$XDG_STATE_HOME/playbackd/state.json` (`~/.local/state/playbackd/state.json`).
/// Written atomically: a temporary file in the same directory, fsync, rename, fsync of the
/// directory, so a crash leaves the old file or the new one, never a torn one.
struct StateFile: Sendable {
    let path: String

    static func defaultPath(environment: Environment) -> String? {
        if let directory = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !directory.isEmpty {
            return directory + "/state.json"
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/playbackd/state.json"
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/playbackd/state.json"
    }

    /// What reading the file found.
    enum Loaded {
        case none
        case state(ResumeState)
        /// The file was unreadable as a state; it was renamed to `movedTo` (nil if that failed).
        case corrupt(StateFileError, movedTo: String?)
    }

    func load() -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return .none }
            return setAside(StateFileError("cannot open: \(String(cString: strerror(errno)))"))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        close(fd)
        do throws(StateFileError) {
            let json: JSONValue
            do { json = try JSONParser.parse(bytes) } catch { throw StateFileError(error.description) }
            return .state(try ResumeState(json: json))
        } catch {
            return setAside(error)
        }
    }

    private func setAside(_ error: StateFileError) -> Loaded {
        var stamp = timespec()
        clock_gettime(CLOCK_REALTIME, &stamp)
        let aside = "\(path).corrupt-\(stamp.tv_sec)"
        return .corrupt(error, movedTo: rename(path, aside) == 0 ? aside : nil)
    }

    /// Writes `bytes` (a serialized `ResumeState`) atomically. Returns the error text on failure.
    func save(_ bytes: [UInt8]) -> String? {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if let failure = makeDirectories(directory) { return failure }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot create \(temporary): \(String(cString: strerror(errno)))" }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let failure = "cannot write \(temporary): \(String(cString: strerror(errno)))"
                close(fd)
                unlink(temporary)
                return failure
            }
            written += count
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let failure = "cannot replace \(path): \(String(cString: strerror(errno)))"
            unlink(temporary)
            return failure
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        return nil
    }

    private func makeDirectories(_ directory: String) -> String? {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                return "cannot create \(prefix): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
