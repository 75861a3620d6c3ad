import Foundation
import SystemSupport
import Testing

@testable import PlaybackEngine

/// The `default` device picks the sound server when one can be reached, without loading
/// libpulse to find out.
@Suite struct DefaultSinkTests {
    @Test("a server is there when PULSE_SERVER names one or the runtime directory holds pulse/native")
    func serverDetection() throws {
        let runtime = NSTemporaryDirectory() + "pbd-default-sink-\(getpid())"
        try FileManager.default.createDirectory(atPath: runtime + "/pulse", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(!DefaultSink.serverIsRunning(["XDG_RUNTIME_DIR": runtime]), "no socket yet")
        #expect(!DefaultSink.serverIsRunning([:]))
        #expect(DefaultSink.serverIsRunning(["PULSE_SERVER": "unix:/run/pulse/native"]))
        #expect(!DefaultSink.serverIsRunning(["PULSE_SERVER": "", "XDG_RUNTIME_DIR": runtime]))
        #expect(FileManager.default.createFile(atPath: runtime + "/pulse/native", contents: nil))
        #expect(DefaultSink.serverIsRunning(["XDG_RUNTIME_DIR": runtime]))
    }
}
