import ControlCLI
import ControlProtocol
import Foundation
import Testing

/// `docs/cli.md` embeds `playbackctl --help` and `playbackctl help templates` exactly as the
/// CLI prints them.
@Suite(.serialized) struct CLIDocumentationTests {
    @Test(
        "docs/cli.md holds the current --help and template reference",
        arguments: [("HelpText", HelpText.overview), ("HelpText.templates", HelpText.templates)])
    func helpIsCurrent(_ source: String, _ text: String) throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent("docs/cli.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let block = "```\n" + text + "```\n"
        let section = GeneratedSection(source: source)
        let updated = try #require(section.replacing(in: document, with: block), "generated-block markers missing")
        if ProcessInfo.processInfo.environment["PLAYBACKD_UPDATE_DOCS"] == "1" && updated != document {
            try updated.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(updated == document, "docs/cli.md is stale: run PLAYBACKD_UPDATE_DOCS=1 swift test")
    }
}
