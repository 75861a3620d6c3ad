import PlaybackModel

/// The table of track fields in `docs/protocol.md`, generated from `TrackField.all`.
public enum TrackFieldReference {
    public static let section = GeneratedSection(source: "TrackField")

    public static var markdown: String {
        var text =
            "| field | type | MP3: ID3v2 | FLAC, Vorbis, Opus: comment | MP4, WAV, AIFF: libavformat's key | MPRIS | in snapshots and queue items |\n"
            + "|---|---|---|---|---|---|---|\n"
        for field in TrackField.all {
            let mpris = field.mpris.map { "`\($0.name)`" + ($0.isList ? " (list)" : "") } ?? ""
            let (id3, comment, ffmpeg) = sources(field)
            text +=
                "| `\(field.key)` | \(typeName(field.storage)) | \(id3) | \(comment) | \(ffmpeg) | \(mpris) | \(presence(field)) |\n"
        }
        return text
    }

    /// Where each tagging system keeps the field (`TagSource`'s tables).
    private static func sources(_ field: TrackField) -> (String, String, String) {
        if case .path = field.storage {
            let cover = "the embedded picture, else `cover.jpg` beside the file"
            return (cover, cover, cover)
        }
        if field.isMeasured {
            let analysis = "the library's loudness analysis"
            return (analysis, analysis, analysis)
        }
        guard let source = field.source else { return ("the audio stream", "the audio stream", "the audio stream") }
        var comments = source.vorbisComments.map { "`\($0)`" }.joined(separator: ", ")
        var ffmpeg = source.ffmpegKey.map { "`\($0)`" } ?? ""
        if case .count(let id) = source {
            let number = TagSource.number(ofFrame: id)
            comments +=
                ", else " + number.vorbisComments.map { "`\($0)`" }.joined(separator: ", ") + " (`3/12` gives 12)"
            ffmpeg += " (`3/12` gives 12)"
        }
        if case .number = source { (comments, ffmpeg) = (comments + " (`3/12` gives 3)", ffmpeg + " (`3/12` gives 3)") }
        if case .replayGain(let description) = source, description.hasSuffix(bytes: "_GAIN") {
            comments += "; Opus also `R128_\(description.dropFirst("REPLAYGAIN_".utf8.count))` + 5 dB"
        }
        return (id3(source), comments, ffmpeg)
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

    private static func id3(_ source: TagSource) -> String {
        switch source {
        case .summary(let field):
            "`\(["title": "TIT2", "artist": "TPE1", "album": "TALB"]["\(field)"] ?? "")`, else ID3v1"
        case .frame(let id): "`\(id)`"
        case .genre: "`TCON` (ID3v1 genre numbers resolved), else ID3v1"
        case .year: "`TDRC`, `TYER`, else ID3v1"
        case .number(let id): "`\(id)` (`3/12` gives 3)" + (id == "TRCK" ? ", else ID3v1.1" : "")
        case .count(let id): "`\(id)` (`3/12` gives 12)"
        case .replayGain(let description): "`TXXX:\(description)`"
        case .userText(let id3, _): "`TXXX:\(id3)`"
        }
    }
}
