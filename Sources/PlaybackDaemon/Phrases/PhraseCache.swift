import ControlProtocol
import PlaybackModel
import SystemSupport

/// The phrases found in each file, kept under `$XDG_CACHE_HOME/playbackd/phrases/` (one JSON
/// file per path, named by its hash) so an item is analysed once: reused across restarts while
/// the file's size and modification time and the parameters are the same, redone otherwise.
/// URLs are not kept. Used by the analysis thread alone.
struct PhraseCache: Sendable {
    /// Nil: nothing is kept (no cache directory).
    let directory: String?

    /// `$CACHE_DIRECTORY/phrases` under systemd (the unit's `CacheDirectory=playbackd`, writable
    /// despite `ProtectHome=read-only`), else `$XDG_CACHE_HOME/playbackd/phrases`.
    static func defaultDirectory(environment: Environment) -> String? {
        if let directory = XDGDirectories.systemd("CACHE_DIRECTORY", environment: environment) {
            return directory + "/phrases"
        }
        return XDGDirectories.cache(environment: environment).map { $0 + "/phrases" }
    }

    /// The phrases kept for `path` with `parameters`, when the file has not changed since.
    func phrases(for path: String, parameters: PhraseParameters) -> [Phrase]? {
        guard let file = file(for: path), let identity = FileSystem.identity(of: path),
            let bytes = try? FileSystem.readAll(file, maximumBytes: 64 << 20),
            let json = try? JSONParser.parse(bytes)
        else { return nil }
        guard json["path"]?.stringValue == path, json["size"]?.numberValue == Double(identity.size),
            json["modified"]?.numberValue == Double(identity.modified),
            json["parameters"] == Self.json(parameters), let list = json["phrases"]?.arrayValue
        else { return nil }
        var phrases: [Phrase] = []
        for entry in list {
            guard let bounds = entry.arrayValue, bounds.count == 2, let start = bounds[0].numberValue,
                let end = bounds[1].numberValue, start <= end
            else { return nil }
            phrases.append(Phrase(start: start, end: end))
        }
        return phrases
    }

    /// Keeps `phrases` for `path`; a failure to write only means it is analysed again later.
    func store(_ phrases: [Phrase], for path: String, parameters: PhraseParameters) {
        guard let directory, let file = file(for: path), let identity = FileSystem.identity(of: path),
            FileSystem.makeDirectories(directory) == nil
        else { return }
        let json = JSONValue.object([
            ("version", .number(1)), ("path", .string(path)), ("size", .number(Double(identity.size))),
            ("modified", .number(Double(identity.modified))), ("parameters", Self.json(parameters)),
            ("phrases", .array(phrases.map { .array([.number($0.start), .number($0.end)]) })),
        ])
        _ = FileSystem.replace(file, with: json.serializedBytes, durable: false)
    }

    private func file(for path: String) -> String? {
        guard let directory, !StreamURL.isStream(path) else { return nil }
        return directory + "/" + ArtworkStore.hash(Array(path.utf8)) + ".json"
    }

    private static func json(_ parameters: PhraseParameters) -> JSONValue {
        .object([
            ("threshold", .number(parameters.threshold)), ("minimumSilence", .number(parameters.minimumSilence)),
            ("minimumPhrase", .number(parameters.minimumPhrase)), ("maximumPhrase", .number(parameters.maximumPhrase)),
            ("padding", .number(parameters.padding)),
        ])
    }
}
