import Foundation

/// What the daemon has open, read from `/proc/PID/fd`.
extension DaemonProcess {
    /// The paths the daemon has open, from `/proc/PID/fd`.
    func openFiles() throws -> [String] {
        let directory = "/proc/\(pid)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: directory).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)
        }
    }

    /// The audio files and the capture device the daemon has open.
    func openAudio() throws -> [String] {
        try openFiles().filter { $0.hasSuffix(".mp3") || $0 == capturePath }.sorted()
    }
}
