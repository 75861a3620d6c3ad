import ControlProtocol
import DocumentationSupport
import Foundation
import PlaybackModel
import Testing

/// `docs/protocol.md` carries the reference generated from the catalog, unchanged.
/// `PLAYBACKD_UPDATE_DOCS=1 swift test --filter CatalogDocumentation` rewrites it.
@Suite struct CatalogDocumentationTests {
    @Test("docs/protocol.md holds the reference generated from the catalog")
    func referenceIsCurrent() throws {
        try GeneratedDocument.check("docs/protocol.md", ProtocolReference.section, content: ProtocolReference.markdown)
    }

    /// One `### \`name\`` section of the committed docs/protocol.md: its argument rows.
    private struct DocumentedCommand {
        var name: String
        var arguments: [(name: String, type: String, required: Bool)] = []
    }

    private func documentedCommands() throws -> [DocumentedCommand] {
        let text = try GeneratedDocument.read("docs/protocol.md")
        var commands: [DocumentedCommand] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## ") { commands.append(DocumentedCommand(name: "")) }  // ends a section
            if line.hasPrefix("### `"), line.hasSuffix("`") {
                commands.append(DocumentedCommand(name: String(line.dropFirst(5).dropLast())))
            } else if line.hasPrefix("| `"), !(commands.last?.name.isEmpty ?? true) {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 3 else { continue }
                commands[commands.count - 1].arguments.append(
                    (String(cells[0].dropFirst().dropLast()), cells[1], cells[2] == "yes"))
            }
        }
        return commands.filter { !$0.name.isEmpty }
    }

    private func decodeError(_ members: String) -> String? {
        switch RequestDecoder.decode(Array("{\"id\":1,\(members)}".utf8)) {
        case .success: nil
        case .failure(let failure): failure.error.message
        }
    }

    @Test("the committed docs/protocol.md documents exactly what the request decoder accepts")
    func referenceMatchesTheDecoder() throws {
        let documented = try documentedCommands()
        #expect(documented.count == CommandName.allCases.count, "\(documented.map(\.name))")
        #expect(decodeError("\"command\":\"noSuchCommand\"")?.contains("unknown command") == true)
        for command in documented {
            let bare = decodeError("\"command\":\"\(command.name)\"")
            #expect(bare?.contains("unknown command") != true, "\(command.name) is documented, the decoder refuses it")
            #expect(
                decodeError("\"command\":\"\(command.name)\",\"undocumentedArgument\":1")?.contains("unknown argument")
                    == true)
            for argument in command.arguments {
                // A value of the wrong type is refused naming the documented type, so the
                // decoder knows the argument and agrees on its type.
                let wrong = argument.type == "number" ? "\"x\"" : argument.type.contains("object") ? "1" : "{}"
                let error = decodeError("\"command\":\"\(command.name)\",\"\(argument.name)\":\(wrong)")
                #expect(
                    error?.contains("'\(argument.name)' must be a \(argument.type),") == true,
                    "\(command.name).\(argument.name): \(error ?? "accepted")")
                // Without its arguments a command with a required one is refused for that.
                let refusedForIt = bare?.contains("requires '\(argument.name)'") == true
                #expect(
                    argument.required ? bare?.contains("requires '") == true : !refusedForIt,
                    "\(command.name).\(argument.name) required: \(argument.required), \(bare ?? "accepted")")
            }
            // Every argument the decoder takes is documented.
            if let spec = CommandName(rawValue: command.name).map(CommandCatalog.spec) {
                #expect(
                    spec.arguments.map(\.name).sorted() == command.arguments.map(\.name).sorted(), "\(command.name)")
            }
        }
        let text = try GeneratedDocument.read("docs/protocol.md")
        for status in CommandStatus.allCases { #expect(text.contains("| `\(status.rawValue)` |")) }
    }

    @Test("every catalog entry has a CLI verb and a unique wire name")
    func catalogIsComplete() {
        #expect(Set(CommandCatalog.all.map(\.name)) == Set(CommandName.allCases))
        #expect(CommandCatalog.all.count == CommandName.allCases.count)
        for spec in CommandCatalog.all { #expect(!spec.verbs.isEmpty, "\(spec.name)") }
    }
}
