import Foundation

/// Where the tests find the built binaries, the generated fixtures and the test ALSA
/// configuration. `Scripts/test` sets up all of it; the paths are derived from this file's
/// location so `swift test` after `Scripts/test` works too.
enum TestEnvironment {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let environment = ProcessInfo.processInfo.environment
    static let binDirectory = environment["PLAYBACKD_BIN_DIR"] ?? packageRoot + "/.build/debug"
    static let fixtures = packageRoot + "/Tests/Fixtures/generated"
    static let alsaConfigPath = "/usr/share/alsa/alsa.conf:" + packageRoot + "/Tests/alsa/test.conf"
    /// The run's own directory: `Scripts/test` makes it, points `TMPDIR` into it and removes
    /// it with everything in it at the end, also when a test fails or the run is interrupted.
    static let runRoot = environment["PLAYBACKD_TEST_ROOT"] ?? "/tmp"
    /// `thread` or `address` under `Scripts/test --sanitize`.
    static let sanitizer = environment["PLAYBACKD_SANITIZE"]

    static func fixture(_ name: String) -> String { fixtures + "/" + name }

    /// The reference decode (`mpg123 --gapless -s`) of a fixture, made by `Scripts/make-fixtures`.
    static func reference(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: fixture(name + ".ref.raw")))
    }

    /// `flac -d`'s 3-byte reference of a 24-bit fixture as the 4-byte samples a device opened at
    /// `S32_LE` takes: each value at the top, the low byte zero.
    static func widenedReference(_ name: String) throws -> Data {
        let packed = try reference(name)
        var widened = Data(capacity: packed.count / 3 * 4)
        for offset in stride(from: packed.startIndex, to: packed.endIndex - 2, by: 3) {
            widened.append(contentsOf: [0, packed[offset], packed[offset + 1], packed[offset + 2]])
        }
        return widened
    }

    /// Builds `Tests/Fixtures/src/NAME.c` with the toolchain's C compiler into `directory`, as a
    /// library to preload into a daemon (`LD_PRELOAD`); its path.
    static func preloadLibrary(_ name: String, in directory: String) throws -> String {
        let library = directory + "/lib\(name).so"
        let build = try CommandLineRun.run(
            executable: "/usr/bin/env",
            ["clang", "-shared", "-fPIC", "-O2", "-o", library, packageRoot + "/Tests/Fixtures/src/\(name).c", "-ldl"])
        guard build.status == 0 else { throw TestFailure("building \(name).c failed: \(build.stderr)") }
        return library
    }

    /// A fresh private directory under the run's root, removed when the test that made it
    /// ends (`TestWorlds`).
    static func makeTemporaryDirectory() -> String {
        var template = Array((runRoot + "/pbdtest.XXXXXX").utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        TestWorlds.removeAtEnd(path)
        return path
    }

    /// `environment` with the marks of the run and of the test that starts the program
    /// (`PLAYBACKD_TEST_RUN`, `PLAYBACKD_TEST_ID`): a program left running is found by them,
    /// however it was started (`TestWorlds` after each test, `Scripts/test` after the run).
    static func marked(_ environment: [String: String]) -> [String: String] {
        var marked = environment
        marked["PLAYBACKD_TEST_RUN"] = runRoot
        if let test = TestWorlds.currentTest { marked["PLAYBACKD_TEST_ID"] = test }
        return marked
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Compares 16-bit PCM and says where it first differs by more than `tolerance` LSB (0: byte
/// for byte); lengths must be equal.
func pcmDifference(_ actual: Data, _ expected: Data, tolerance: Int = 0) -> String? {
    if actual == expected { return nil }
    if tolerance > 0 && actual.count == expected.count {
        let samples = actual.count / 2
        let beyond = actual.withUnsafeBytes { a in
            expected.withUnsafeBytes { e in
                let (x, y) = (a.bindMemory(to: Int16.self), e.bindMemory(to: Int16.self))
                return (0..<samples).first { abs(Int(x[$0]) - Int(y[$0])) > tolerance }
            }
        }
        guard let beyond else { return nil }
        return "sample \(beyond) of \(samples) differs by more than \(tolerance) LSB"
    }
    let common = min(actual.count, expected.count)
    let firstDifference = (0..<common).first { actual[actual.startIndex + $0] != expected[expected.startIndex + $0] }
    return
        "captured \(actual.count) bytes, expected \(expected.count); first difference at byte \(firstDifference.map(String.init) ?? "\(common) (one is a prefix of the other)")"
}
