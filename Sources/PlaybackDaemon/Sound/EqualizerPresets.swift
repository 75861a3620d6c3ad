import ControlProtocol
import PlaybackModel
import SystemSupport

/// The equalizer presets: the built-in curves, and the curves saved as parametric EQ text
/// (`NAME.txt`) in `directory`, which win over a built-in of the same name.
struct EqualizerPresets {
    /// `$XDG_CONFIG_HOME/playbackd/eq`; nil when there is no configuration directory.
    let directory: String?
    /// A parametric EQ file is small: AutoEq's have about a dozen lines.
    static let maximumFileBytes = 65_536

    static func defaultDirectory(environment: Environment) -> String? {
        XDGDirectories.config(environment: environment).map { $0 + "/eq" }
    }

    /// Every preset's name, sorted.
    func names() -> [String] {
        let saved = directory.map { FileSystem.names(in: $0) } ?? []
        let savedNames = saved.filter { $0.hasSuffix(bytes: ".txt") }.map { String($0.dropLast(4)) }
            .filter { EqualizerPreset.problem(withName: $0) == nil }
        return Set(EqualizerPreset.builtIn.map(\.name) + savedNames).sorted()
    }

    /// The curve `source` names, switched on; its `preset` is the name or the file's path.
    func load(_ source: EqualizerSource) throws(CommandFailure) -> Equalizer {
        var equalizer: Equalizer
        switch source {
        case .preset(let name):
            if let problem = EqualizerPreset.problem(withName: name) { throw CommandFailure(.badRequest, problem) }
            if let directory, let saved = try read(directory + "/\(name).txt", missingIsError: false) {
                equalizer = saved
            } else if let builtIn = EqualizerPreset.builtIn(name) {
                equalizer = builtIn
            } else {
                throw CommandFailure(
                    .noSuchContent, "no preset '\(name)' (presets: \(names().joined(separator: ", ")))")
            }
            equalizer.preset = name
        case .file(let path):
            equalizer = try read(path, missingIsError: true)!
            equalizer.preset = path
        }
        equalizer.isEnabled = true
        return equalizer
    }

    /// Writes `equalizer` as `name`'s file.
    func save(_ equalizer: Equalizer, as name: String) throws(CommandFailure) {
        guard let directory else {
            throw CommandFailure(.commandFailed, "no configuration directory to save presets in (HOME is not set)")
        }
        if let failure = FileSystem.replace(
            directory + "/\(name).txt", with: Array(ParametricEQText.format(equalizer).utf8), durable: true)
        {
            throw CommandFailure(.commandFailed, failure)
        }
    }

    private func read(_ path: String, missingIsError: Bool) throws(CommandFailure) -> Equalizer? {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path, maximumBytes: Self.maximumFileBytes)
        } catch .missing where !missingIsError {
            return nil
        } catch {
            throw CommandFailure(.noSuchContent, "\(path): \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(.badRequest, "\(path): not UTF-8 text")
        }
        do {
            return try ParametricEQText.parse(text)
        } catch {
            throw CommandFailure(.badRequest, "\(path): \(error)")
        }
    }
}

extension EqualizerPresets {
    /// `equalizer` (with the presets' names), `loadEqualizer` and `saveEqualizer`: the preset
    /// files, then the curve into `state`.
    func perform(_ command: PresetCommand, on state: inout PlayerState) -> (CommandResult, ChangeSet) {
        do throws(CommandFailure) {
            switch command {
            case .list:
                return (.success(.equalizer(state.sound.equalizer, presets: names())), [])
            case .load(let source):
                return state.setEqualizer(try load(source))
            case .save(let name):
                try save(state.sound.equalizer, as: name)
                var named = state.sound.equalizer
                named.preset = name
                return state.setEqualizer(named)
            }
        } catch {
            return (.failure(error), [])
        }
    }
}
