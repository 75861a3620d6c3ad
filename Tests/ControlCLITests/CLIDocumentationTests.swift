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
}
