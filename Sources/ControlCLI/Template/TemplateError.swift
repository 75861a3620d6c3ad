/// Why a template does not parse, and where: `column` counts user-perceived characters from 1.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let column: Int
    public let template: String

    /// The message, then the template with a caret under the column.
    public var description: String {
        let line = template.map { $0.isNewline ? " " : String($0) }.joined()
        return "\(message) at column \(column)\n  \(line)\n  \(String(repeating: " ", count: column - 1))^"
    }
}
