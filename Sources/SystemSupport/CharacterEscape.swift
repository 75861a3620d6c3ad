/// The one-letter escapes JSON and TOML share after a backslash: `\b \t \n \f \r \" \\`.
public enum CharacterEscape {
    /// The character `letter` stands for after a backslash; nil when it is not one of these.
    @inlinable
    public static func scalar(for letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "b"): "\u{08}"
        case UInt8(ascii: "t"): "\t"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "f"): "\u{0C}"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        default: nil
        }
    }
}
