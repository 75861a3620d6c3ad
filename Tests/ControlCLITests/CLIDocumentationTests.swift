import ControlCLI
import ControlProtocol
import Foundation
import Testing

/// `docs/cli.md` embeds `playbackctl --help` exactly as the CLI prints it.
@Suite struct CLIDocumentationTests {
    static let section = GeneratedSection(source: "HelpText")

    @Test("docs/cli.md holds the current --help")
    func helpIsCurrent() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent("docs/cli.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let block = "```\n" + HelpText.overview + "```\n"
        let updated = try #require(Self.section.replacing(in: document, with: block), "generated-block markers missing")
        if ProcessInfo.processInfo.environment["PLAYBACKD_UPDATE_DOCS"] == "1" && updated != document {
            try updated.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(updated == document, "docs/cli.md is stale: run PLAYBACKD_UPDATE_DOCS=1 swift test")
    }
}
