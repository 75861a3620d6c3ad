import ControlCLI
import ControlProtocol
import DocumentationSupport
import Testing

/// `docs/cli.md` embeds `playbackctl --help` and `playbackctl help templates` exactly as the
/// CLI prints them.
@Suite(.serialized) struct CLIDocumentationTests {
    @Test(
        "docs/cli.md holds the current --help and template reference",
        arguments: [("HelpText", HelpText.overview), ("HelpText.templates", HelpText.templates)])
    func helpIsCurrent(_ source: String, _ text: String) throws {
        try GeneratedDocument.check("docs/cli.md", GeneratedSection(source: source), content: "```\n" + text + "```\n")
    }

    @Test("every line of the help fits 80 columns", arguments: [HelpText.overview, HelpText.templates])
    func helpFitsTheTerminal(_ text: String) {
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test("a usage as wide as the column has its description on the lines below it")
    func wideUsageIsNotRunIntoItsDescription() throws {
        // `enqueue, add PATH... [--next] [--replace] [--play]` is wider than the column; its
        // description used to follow it on the same line after one space.
        let lines = HelpText.overview.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("  enqueue, add ") })
        #expect(lines[index] == "  enqueue, add PATH... [--next] [--replace] [--play]")
        #expect(lines[index + 1].hasPrefix(String(repeating: " ", count: 46) + "Add files"))
    }
}
