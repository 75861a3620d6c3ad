import Foundation
import PlaybackEngine

/// The generated fixtures (`Scripts/make-fixtures`) and the test ALSA configuration.
enum Fixtures {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func path(_ name: String) -> String { root + "/Tests/Fixtures/generated/" + name }

    static func reference(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name + ".ref.raw")))
    }

    /// Makes this process use the test ALSA configuration, capturing to `capture`.
    static func useTestALSA(capture: String) {
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:" + root + "/Tests/alsa/test.conf", 1)
        setenv("PLAYBACKD_CAPTURE", capture, 1)
    }

    /// Everything `decoder` decodes from where it is, as little-endian bytes (the reference
    /// decoders' raw output).
    static func decodeAll(_ decoder: any AudioDecoder) throws -> Data {
        var out = Data()
        var buffer = [Int16](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0) }
            if count == 0 { return out }
            out.append(buffer.withUnsafeBytes { Data($0.prefix(count * 2)) })
        }
    }
}
