import ControlProtocol
import Foundation
import PlaybackModel
import Testing

/// `docs/protocol.md` carries the reference generated from the catalog, unchanged.
/// `PLAYBACKD_UPDATE_DOCS=1 swift test --filter CatalogDocumentation` rewrites it.
@Suite struct CatalogDocumentationTests {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("docs/protocol.md").path
    }()

    @Test("docs/protocol.md holds the reference generated from the catalog")
    func referenceIsCurrent() throws {
        let document = try String(contentsOfFile: Self.path, encoding: .utf8)
        let updated = try #require(ProtocolReference.updating(document), "generated-block markers missing")
        if ProcessInfo.processInfo.environment["PLAYBACKD_UPDATE_DOCS"] == "1" && updated != document {
            try updated.write(toFile: Self.path, atomically: true, encoding: .utf8)
            return
        }
        #expect(updated == document, "docs/protocol.md is stale: run PLAYBACKD_UPDATE_DOCS=1 swift test")
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
