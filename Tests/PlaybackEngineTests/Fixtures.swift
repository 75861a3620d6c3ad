import Foundation

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
}
