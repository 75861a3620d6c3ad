import CDecoderLibraries
import PlaybackModel

/// The tags libavformat read from an MP4 (iTunes atoms: `©nam` as `title`, `aART` as
/// `album_artist`, `trkn` as `track`, freeform `----:com.apple.iTunes:replaygain_*` under their
/// names), a WAV's INFO list or an AIFF's text chunks, mapped to the fields `TrackField.all`
/// declares. Keys are compared without regard to case (`av_dict_get`'s default).
struct FFmpegTags: TagReader {
    /// The container's tags, then the audio stream's.
    let dictionaries: [OpaquePointer?]
    /// The container's chapters (`AVFormatContext.chapters`).
    let chapters: [(start: Double, title: String?)]

    /// The `title` tag.
    var title: String? { text("title") }

    /// What libavformat calls the tag that holds what an ID3v2 frame holds.
    private static let frameKeys = ["TPE2": "album_artist", "TCOM": "composer", "TRCK": "track", "TPOS": "disc"]

    func value(of source: TagSource) -> TrackFieldValue? {
        switch source {
        case .summary(.title): text("title").map(TrackFieldValue.text)
        case .summary(.artist): text("artist").map(TrackFieldValue.text)
        case .summary(.album): text("album").map(TrackFieldValue.text)
        case .frame(let id): Self.frameKeys[id].flatMap(text).map(TrackFieldValue.text)
        case .genre: text("genre").map(TrackFieldValue.text)
        case .year: text("date").flatMap(TagText.leadingYear).map(TrackFieldValue.number)
        case .number(let id): TagText.numberAndCount(Self.frameKeys[id].flatMap(text)).0.map(TrackFieldValue.number)
        case .count(let id): TagText.numberAndCount(Self.frameKeys[id].flatMap(text)).1.map(TrackFieldValue.number)
        case .replayGain(let key): text(key.lowercased()).flatMap(TagText.replayGain).map(TrackFieldValue.decimal)
        }
    }

    private func text(_ key: String) -> String? {
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
