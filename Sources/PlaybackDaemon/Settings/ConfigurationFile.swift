import ControlProtocol
import SystemSupport
import TOMLKit

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
    ///
    /// TOMLKit 0.6 never frees what it parses (a table has no `deinit`, and reading keys or
    /// numbers mallocs copies): about 3.4 KB per reading of a file that sets everything, at
    /// start and at each SIGHUP (docs/reliability.md).
    public static func apply(_ text: String, path: String, to settings: inout DaemonSettings)
        throws(ConfigurationError)
    {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                path: path, line: error.source.begin.line, key: nil, message: "not valid TOML: \(error.description)")
        } catch {
            throw ConfigurationError(path: path, line: nil, key: nil, message: "not valid TOML: \(error)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let keyLines = table.keys.map { (key: $0, line: line(of: $0, in: lines)) }
        // In file order, so the first bad line is the one reported.
        for (key, line) in keyLines.sorted(by: { ($0.line ?? 0) < ($1.line ?? 0) }) {
            guard let spec = SettingsCatalog.spec(key) else {
                let known = SettingsCatalog.all.map(\.name).joined(separator: ", ")
                throw ConfigurationError(
                    path: path, line: line, key: key, message: "unknown setting (settings: \(known))")
            }
            do {
                try spec.apply(input(table[key]!), &settings)
            } catch {
                throw ConfigurationError(path: path, line: line, key: key, message: error.message)
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

    /// The line (from 1) where `key` is assigned at the top level; TOMLKit keeps no positions.
    static func line(of key: String, in lines: [Substring]) -> Int? {
        for (index, line) in lines.enumerated() {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.first == "[" { return nil }
            for form in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(form) {
                rest = rest.dropFirst(form.count).drop { $0 == " " || $0 == "\t" }
                if rest.first == "=" { return index + 1 }
            }
        }
        return nil
    }

    static func input(_ value: any TOMLValueConvertible) -> SettingInput {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return .number(Double(value.int ?? 0))
        case .double: return .number(value.double ?? .nan)
        case .bool: return .boolean(value.bool ?? false)
        case .array:
            // An array of strings or an array of numbers; anything else is named by the first
            // element that does not fit the first one's kind.
            var strings: [String] = []
            var numbers: [Double] = []
            for element in value.array ?? TOMLArray() {
                if let string = element.string, numbers.isEmpty {
                    strings.append(string)
                } else if let number = element.double ?? element.int.map(Double.init), strings.isEmpty {
                    numbers.append(number)
                } else {
                    return .other("an array with \(element.type.description) in it")
                }
            }
            return strings.isEmpty && !numbers.isEmpty ? .numbers(numbers) : .strings(strings)
        default: return .other("a \(value.type.description)")
        }
    }
}
