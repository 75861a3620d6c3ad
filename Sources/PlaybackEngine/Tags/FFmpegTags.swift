import CDecoderLibraries
import PlaybackModel

/// The tags libavformat read from an MP4 (iTunes atoms: `©nam` as `title`, `aART` as
/// `album_artist`, `trkn` as `track`, freeform `----:com.apple.iTunes:replaygain_*` under their
/// names), a WAV's INFO list or an AIFF's text chunks, mapped to the fields `TrackField.all`
/// declares. Keys are compared without regard to case (`av_dict_get`'s default).
struct FFmpegTags: FFmpegKeyedTags {
    /// The container's tags, then the audio stream's.
    let dictionaries: [OpaquePointer?]
    /// The container's chapters (`AVFormatContext.chapters`).
    let chapters: [(start: Double, title: String?)]

    /// The `title` tag.
    var title: String? { text("title") }

    func text(_ key: String) -> String? {
        for dictionary in dictionaries {
            guard let entry = playbackd_av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else {
                continue
            }
            let text = String(cString: value)
            if !text.isEmpty { return text }
        }
        return nil
    }
}

/// Tags under libavformat's keys (`TagSource.ffmpegKey`): FFmpeg's dictionaries, and the MP4
/// atoms `MP4Tags` reads under the same names.
protocol FFmpegKeyedTags: TagReader {
    /// The text under `key`; nil when there is none.
    func text(_ key: String) -> String?
}

extension FFmpegKeyedTags {
    /// Each field from the key `TagSource.ffmpegKey` names.
    func value(of source: TagSource) -> TrackFieldValue? {
        let found = source.ffmpegKey.flatMap(text)
        return switch source {
        case .summary, .frame, .genre, .userText: found.map(TrackFieldValue.text)
        case .year: found.flatMap(TagText.leadingYear).map(TrackFieldValue.number)
        case .number: TagText.numberAndCount(found).0.map(TrackFieldValue.number)
        case .count: TagText.numberAndCount(found).1.map(TrackFieldValue.number)
        case .replayGain: found.flatMap(TagText.replayGain).map(TrackFieldValue.decimal)
        }
    }
}
