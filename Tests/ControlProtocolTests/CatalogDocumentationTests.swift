import ControlProtocol
import DocumentationSupport
import PlaybackModel
import Testing

/// `docs/protocol.md` carries the reference generated from the catalog, unchanged.
/// `PLAYBACKD_UPDATE_DOCS=1 swift test --filter CatalogDocumentation` rewrites it.
@Suite struct CatalogDocumentationTests {
    @Test("docs/protocol.md holds the reference generated from the catalog")
    func referenceIsCurrent() throws {
        try GeneratedDocument.check("docs/protocol.md", ProtocolReference.section, content: ProtocolReference.markdown)
    }

    @Test("the reference names every command, argument and status")
    func referenceIsComplete() {
        let text = ProtocolReference.markdown
        for spec in CommandCatalog.all {
            #expect(text.contains("### `\(spec.name.rawValue)`"))
            for argument in spec.arguments { #expect(text.contains("| `\(argument.name)` |")) }
        }
        for status in CommandStatus.allCases { #expect(text.contains("| `\(status.rawValue)` |")) }
    }

    @Test("every catalog entry has a CLI verb and a unique wire name")
    func catalogIsComplete() {
        #expect(Set(CommandCatalog.all.map(\.name)) == Set(CommandName.allCases))
        #expect(CommandCatalog.all.count == CommandName.allCases.count)
        for spec in CommandCatalog.all { #expect(!spec.verbs.isEmpty, "\(spec.name)") }
    }
}
