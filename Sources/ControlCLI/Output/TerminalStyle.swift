import ControlProtocol
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Whether output may be coloured: only on a terminal, never with `NO_COLOR` set
/// (https://no-color.org) or `TERM=dumb`.
public struct TerminalStyle: Equatable, Sendable {
    public let isColored: Bool

    public static let plain = TerminalStyle(isColored: false)

    public init(isColored: Bool) { self.isColored = isColored }

    /// The style for standard output under `environment`.
    public static func standardOutput(environment: Environment) -> TerminalStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return TerminalStyle(isColored: isatty(STDOUT_FILENO) == 1 && !noColor && !dumb)
    }

    /// `[state]`, coloured by state when colour is on.
    func stateTag(_ state: String) -> String {
        let tag = "[\(state)]"
        guard isColored else { return tag }
        let code =
            switch state {
            case "playing": "32"
            case "paused": "33"
            case "interrupted": "31"
            default: "2"
            }
        return "\u{1B}[\(code)m\(tag)\u{1B}[0m"
    }
}
