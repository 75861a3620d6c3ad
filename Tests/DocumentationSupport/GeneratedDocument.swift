import ControlProtocol
import Foundation

/// Checks that a documentation file's generated block is what the code generates now, for
/// the tests of every target that generates one. With `PLAYBACKD_UPDATE_DOCS=1` it rewrites the
/// block instead.
public enum GeneratedDocument {
    /// Why a check could not pass.
    public struct Stale: Error, CustomStringConvertible {
        public let description: String
    }

    /// Compares `section` of `relativePath` (from the repository's root) with `content`.
    public static func check(_ relativePath: String, _ section: GeneratedSection, content: String) throws {
        let path = self.path(relativePath)
        let document = try String(contentsOfFile: path, encoding: .utf8)
        guard let updated = section.replacing(in: document, with: content) else {
            throw Stale(description: "\(relativePath): the markers of the block from \(section.source) are missing")
        }
        guard updated != document else { return }
        if ProcessInfo.processInfo.environment["PLAYBACKD_UPDATE_DOCS"] == "1" {
            return try updated.write(toFile: path, atomically: true, encoding: .utf8)
        }
        throw Stale(description: "\(relativePath) is stale (\(section.source)): run PLAYBACKD_UPDATE_DOCS=1 swift test")
    }

    /// The committed text of `relativePath` (from the repository's root).
    public static func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path(relativePath), encoding: .utf8)
    }

    private static func path(_ relativePath: String) -> String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(relativePath).path
    }
}
