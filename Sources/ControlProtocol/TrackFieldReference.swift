import PlaybackModel

/// The table of track fields in `docs/protocol.md`, generated from `TrackField.all`.
public enum TrackFieldReference {
    public static let section = GeneratedSection(source: "TrackField")

    public static var markdown: String {
        var text = "| field | type | read from | MPRIS | in snapshots and queue items |\n|---|---|---|---|---|\n"
        for field in TrackField.all {
            let mpris = field.mpris.map { "`\($0.name)`" + ($0.isList ? " (list)" : "") } ?? ""
            text +=
                "| `\(field.key)` | \(typeName(field.storage)) | \(source(field)) | \(mpris) | \(presence(field)) |\n"
        }
        return text
    }

    private static func typeName(_ storage: TrackField.Storage) -> String {
        switch storage {
        case .requiredText, .text: "string"
        case .number, .requiredNumber: "integer"
        case .seconds: "seconds"
        case .decimal: "number"
        case .path: "`file://` URL"
        }
    }

    private static func presence(_ field: TrackField) -> String {
        field.isRequired ? "always" : field.isAlwaysSent ? "always, null when untagged" : "when known"
    }

    private static func source(_ field: TrackField) -> String {
        if case .path = field.storage { return "the embedded picture, else `cover.jpg` beside the file" }
        return switch field.source {
        case .summary(let field)?:
            "ID3v2 `\(["title": "TIT2", "artist": "TPE1", "album": "TALB"]["\(field)"] ?? "")`, else ID3v1"
        case .frame(let id)?: "ID3v2 `\(id)`"
        case .genre?: "`TCON` (ID3v1 genre numbers resolved), else ID3v1"
        case .year?: "`TDRC`, `TYER`, else ID3v1"
        case .number(let id)?: "`\(id)` (`3/12` gives 3)" + (id == "TRCK" ? ", else ID3v1.1" : "")
        case .count(let id)?: "`\(id)` (`3/12` gives 12)"
        case .replayGain(let description)?: "ID3v2 `TXXX:\(description)`"
        case nil: "the audio stream"
        }
    }
}
