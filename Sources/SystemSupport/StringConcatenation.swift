extension Array where Element == String {
    /// The strings one after another, with `separator` between them: `joined(separator:)`
    /// written for this one type. The standard library's generic version, called unspecialized,
    /// makes the runtime look up a protocol conformance among all of the program's (about
    /// 85,000 instructions, once per process): a sixteenth of a whole `playbackctl status`.
    public func concatenated(separator: String = "") -> String {
        var text = ""
        for (index, string) in enumerated() {
            if index > 0 { text += separator }
            text += string
        }
        return text
    }
}
