import Foundation
import Testing

/// Records what a PulseAudio sink plays (its monitor source) with `parec`, as raw stereo
/// samples (16-bit at 44.1 kHz unless told) in a file. The monitor delivers blocks of 5 ms as the sink plays them,
/// so the file's length tells how far playback had come. Ready when the server lists the
/// recording stream; the first blocks still come a little after the sink starts.
final class MonitorRecorder {
    let path: String
    private var process: SpawnedProcess?
    private let frameBytes: Int

    /// `format`: `parec`'s name of the sample format (`s16le`, `s32le`).
    init(
        server: PulseServer, sink: String = "nullsink", directory: String, format: String = "s16le", rate: Int = 44_100
    ) throws {
        frameBytes = format == "s32le" ? 8 : 4
        let runtime = server.runtime
        path = directory + "/monitor.raw"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        process = try SpawnedProcess(
            [
                "/bin/sh", "-c",
                "exec /usr/bin/parec -d \(sink).monitor --format=\(format) --rate=\(rate) --channels=2 --latency-msec=5 > '\(path)'",
            ], environment: ["XDG_RUNTIME_DIR=" + runtime, "HOME=" + runtime, "PATH=/usr/bin:/bin"])
        try waitUntil(timeout: 10) { !(try server.pactl(["list", "short", "source-outputs"]).isEmpty) }
    }

    /// Waits until `frames` have been recorded; false after `timeout` seconds.
    func waitFor(frames wanted: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while frames < wanted {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    deinit { process?.kill() }

    /// Frames recorded so far.
    var frames: Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return size / frameBytes
    }

    /// What was recorded so far (the recording goes on).
    func recorded() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Stops recording; what was recorded.
    func stop() throws -> Data {
        // parec writes what it holds and exits on SIGINT.
        process?.stop(with: SIGINT)
        process = nil
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

/// The left channel of interleaved 16-bit stereo.
func leftChannel(_ data: Data) -> [Int16] {
    data.withUnsafeBytes { raw in
        let samples = raw.bindMemory(to: Int16.self)
        return stride(from: 0, to: samples.count - 1, by: 2).map { Int16(littleEndian: samples[$0]) }
    }
}
