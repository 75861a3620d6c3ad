import ControlProtocol
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `$XDG_CONFIG_HOME/playbackd/config.toml`: TOML with the settings' names as keys. Every
/// key must be a known setting with a value of the right type and range; anything else is an
/// error naming the key and its line, and the daemon does not start (or, on reload, keeps
/// the configuration it has).
public struct ConfigurationFile {
    public let path: String

    public init(path: String) { self.path = path }

    /// The default path under `environment`: `$XDG_CONFIG_HOME/playbackd/config.toml`, else
    /// `$HOME/.config/playbackd/config.toml`.
    public static func defaultPath(environment: Environment) -> String? {
        XDGDirectories.config(environment: environment).map { $0 + "/config.toml" }
    }

    /// Applies the file to `settings`. A missing file is not an error unless `mustExist`.
    public func apply(to settings: inout DaemonSettings, mustExist: Bool) throws(ConfigurationError) {
        guard let text = try read(mustExist: mustExist) else { return }
        try Self.apply(text, path: path, to: &settings)
    }

    /// Applies `text`, a configuration file's contents, to `settings`; errors name `path`.
    /// On an error `settings` may hold the keys before the bad one: callers apply to a copy.
    public static func apply(_ text: String, path: String, to settings: inout DaemonSettings)
        throws(ConfigurationError)
    {
        let entries: [TOMLEntry]
        do {
            entries = try TOMLReader.entries(of: text)
        } catch {
            throw ConfigurationError(
                path: path, line: error.line, key: nil, message: "not valid TOML: \(error.message)")
        }
        // In file order, so the first bad line is the one reported.
        for entry in entries {
            guard let spec = SettingsCatalog.spec(entry.key) else {
                let known = SettingsCatalog.all.map(\.name).joined(separator: ", ")
                throw ConfigurationError(
                    path: path, line: entry.line, key: entry.key, message: "unknown setting (settings: \(known))")
            }
            do {
                try spec.apply(input(entry.value), &settings)
            } catch {
                throw ConfigurationError(path: path, line: entry.line, key: entry.key, message: error.message)
            }
        }
    }

    private func read(mustExist: Bool) throws(ConfigurationError) -> String? {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path, maximumBytes: 1 << 20)
        } catch .missing where !mustExist {
            return nil
        } catch {
            let message = if case .tooLarge = error { "larger than 1 MiB" } else { error.description }
            throw ConfigurationError(path: path, line: nil, key: nil, message: message)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(path: path, line: nil, key: nil, message: "not valid UTF-8")
        }
        return text
    }

    static func input(_ value: TOMLValue) -> SettingInput {
        switch value {
        case .string(let string): return .string(string)
        case .integer(let integer): return .number(Double(integer))
        case .float(let float): return .number(float)
        case .boolean(let boolean): return .boolean(boolean)
        case .table: return .other("a table")
        case .dateTime: return .other("a date or time")
        case .array(let elements):
            // An array of strings or an array of numbers; anything else is named by the first
            // element that does not fit the first one's kind.
            var strings: [String] = []
            var numbers: [Double] = []
            for element in elements {
                switch (input(element), numbers.isEmpty, strings.isEmpty) {
                case (.string(let string), true, _): strings.append(string)
                case (.number(let number), _, true): numbers.append(number)
                case (let other, _, _): return .other("an array with \(other.typeName) in it")
                }
            }
            return strings.isEmpty && !numbers.isEmpty ? .numbers(numbers) : .strings(strings)
        }
    }
}
