/// A configuration file or flag the daemon refuses, with where it is and what is wrong:
/// `config.toml:3: pause-hold: -1 is out of range (0 to 86400 seconds)`.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The file, or nil for a command-line flag.
    public let path: String?
    public let line: Int?
    public let key: String?
    public let message: String

    public var description: String {
        var prefix = ""
        if let path { prefix = path + (line.map { ":\($0)" } ?? "") + ": " }
        if let key { prefix += (path == nil ? "--" : "") + key + ": " }
        return prefix + message
    }
}
