import ControlCLI
import Foundation
import Testing

/// docs/media-keys.md: every `playbackctl` command line it shows parses with the current CLI,
/// and every desktop the issue names has bindings for the media-key commands.
@Suite struct MediaKeysDocumentTests {
    static var document: String {
        get throws {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            return try String(contentsOf: url.appendingPathComponent("docs/media-keys.md"), encoding: .utf8)
        }
    }

    /// The command lines in code blocks and inline code: from `playbackctl` to the end of the
    /// line, or to the closing quote when the command is itself quoted.
    static func commandLines(_ document: String) -> [[String]] {
        var lines: [[String]] = []
        var inBlock = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            let spans =
                inBlock
                ? [Substring(line)]
                : line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map(\.element)
            for span in spans {
                var rest = span[...]
                while let range = rest.range(of: "playbackctl ") {
                    let quote = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : " "
                    var command = rest[range.upperBound...]
                    if quote == "'" || quote == "\"", let end = command.firstIndex(of: quote) {
                        command = command[..<end]
                    }
                    lines.append(ShellWords.split(String(command)))
                    rest = command.endIndex < rest.endIndex ? rest[command.endIndex...] : ""
                }
            }
        }
        return lines
    }

    @Test("every command line on the page parses, as a request")
    func commandsParse() throws {
        let lines = Self.commandLines(try Self.document)
        #expect(lines.count >= 50)
        for words in lines {
            let invocation = try Invocation.parse(words, cwd: "/")
            guard case .request = invocation.action else {
                Issue.record("not a request: \(words)")
                continue
            }
        }
    }

    @Test("sway, i3, Hyprland, GNOME, KDE and xbindkeys each bind play/pause, next, previous, skips and more")
    func everyDesktop() throws {
        let document = try Self.document
        let sections = document.components(separatedBy: "\n## ").dropFirst()
        for name in ["sway", "i3", "Hyprland", "GNOME", "KDE Plasma", "xbindkeys"] {
            let section = try #require(sections.first { $0.hasPrefix(name + "\n") || $0.hasPrefix(name + " ") })
            let verbs = Set(Self.commandLines(section).compactMap(\.first))
            for required in ["toggle-play-pause", "skip-forward", "skip-backward"] {
                #expect(verbs.contains(required), "\(name) lacks \(required)")
            }
            #expect(verbs.contains("next-track") || verbs.contains("next"), "\(name) lacks next")
            #expect(verbs.contains("previous-track") || verbs.contains("previous"), "\(name) lacks previous")
        }
    }
}

/// Splits a command line the way a POSIX shell would, for quotes and backslashes.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
