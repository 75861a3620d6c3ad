import ControlProtocol
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The resume state on disk: `$STATE_DIRECTORY/state.json` under systemd, else
/// `$XDG_STATE_HOME/playbackd/state.json` (`~/.local/state/playbackd/state.json`).
/// Written with `FileSystem.replace` (a temporary file, fsync, rename, fsync of the
/// directory), so a crash leaves the old file or the new one, never a torn one.
struct StateFile: Sendable {
    let path: String

    static func defaultPath(environment: Environment) -> String? {
        if let directory = XDGDirectories.systemd("STATE_DIRECTORY", environment: environment) {
            return directory + "/state.json"
        }
        return XDGDirectories.state(environment: environment).map { $0 + "/state.json" }
    }

    /// What reading the file found.
    enum Loaded {
        case none
        case state(ResumeState)
        /// The file was unreadable as a state; it was renamed to `movedTo` (nil if that failed).
        case corrupt(StateFileError, movedTo: String?)
    }

    /// Largest state file read (100,000 items take about 16 MB).
    static let maximumBytes = 256 << 20

    func load() -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path, maximumBytes: Self.maximumBytes)
        } catch .missing {
            return .none
        } catch {
            return setAside(StateFileError("cannot read: \(error)"))
        }
        do throws(StateFileError) {
            return .state(try ResumeState(fileBytes: bytes))
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

    /// Writes `bytes` (a serialized `ResumeState`) atomically and durably. Returns the error
    /// text on failure.
    func save(_ bytes: [UInt8]) -> String? {
        FileSystem.replace(path, with: bytes, durable: true)
    }
}
