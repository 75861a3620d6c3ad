#if canImport(Glibc)
    import Glibc
#endif

/// A secret (a token, an API secret, a session key) kept in a file of its own: never on a
/// command line, where `/proc/PID/cmdline` shows it to every user. The file must be readable
/// by its owner only; its first line is the secret.
enum SecretFile {
    /// Why a secret could not be read; the words say which file and what to do, never the secret.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The most bytes read from one.
    static let maximumBytes = 4096

    /// The secret in `path`: refused when the group or others may read or write the file.
    static func read(_ path: String) -> Result<String, Problem> {
        let bytes: [UInt8]
        do throws(FileSystem.ReadError) {
            let descriptor = try FileSystem.openRegularFile(path)
            defer { close(descriptor) }
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_mode & 0o077 != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                return .failure(
                    Problem(description: "\(path) may be read by others (mode \(mode)): chmod 600 it to use it"))
            }
            bytes = try FileSystem.readAll(descriptor, maximumBytes: maximumBytes)
        } catch {
            return .failure(Problem(description: "\(path): \(error)"))
        }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        let secret = String(decoding: line, as: UTF8.self).filter { $0 != " " && $0 != "\t" }
        guard !secret.isEmpty else { return .failure(Problem(description: "\(path) is empty")) }
        return .success(secret)
    }

    /// Writes `secret` to `path`, readable by its owner only, durably; the error text on failure.
    static func write(_ secret: String, to path: String) -> String? {
        FileSystem.replace(path, with: Array((secret + "\n").utf8), durable: true)
    }
}
