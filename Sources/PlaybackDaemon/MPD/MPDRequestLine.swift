/// One line of MPD's protocol as a command name and its arguments: words separated by spaces
/// or tabs, an argument in double quotes may hold spaces, and `\` escapes the character after
/// it inside quotes (MPD's `Tokenizer`).
struct MPDRequestLine: Equatable {
    var name: String
    var arguments: [String]

    /// The line's words, or why it cannot be read (MPD answers `ACK [5@0] {} ...`).
    static func parse(_ line: String) -> Result<MPDRequestLine, MPDError> {
        var words: [String] = []
        var characters = line.unicodeScalars.makeIterator()
        var current: String.UnicodeScalarView?
        var quoted = false
        while let character = characters.next() {
            if quoted {
                switch character {
                case "\\":
                    guard let escaped = characters.next() else {
                        return .failure(MPDError(.argument, "Missing closing '\"'"))
                    }
                    current!.append(escaped)
                case "\"":
                    quoted = false
                    words.append(String(current!))
                    current = nil
                    // A quoted argument ends at its quote: a space must follow.
                    if let next = characters.next(), next != " " && next != "\t" {
                        return .failure(MPDError(.argument, "Space expected after closing '\"'"))
                    }
                default:
                    current!.append(character)
                }
            } else if character == " " || character == "\t" {
                if let word = current { words.append(String(word)) }
                current = nil
            } else if character == "\"" && current == nil {
                quoted = true
                current = String.UnicodeScalarView()
            } else {
                if current == nil { current = String.UnicodeScalarView() }
                current!.append(character)
            }
        }
        if quoted { return .failure(MPDError(.argument, "Missing closing '\"'")) }
        if let word = current { words.append(String(word)) }
        guard let name = words.first else { return .failure(MPDError(.unknown, "No command given")) }
        // A command's name is a plain word, as MPD's tokenizer reads it (never quoted).
        guard !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("\""),
            name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" })
        else { return .failure(MPDError(.unknown, "Invalid command name")) }
        return .success(MPDRequestLine(name: name, arguments: Array(words.dropFirst())))
    }
}
