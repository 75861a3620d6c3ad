import PlaybackModel

/// Vorbis comments (FLAC, Ogg Vorbis, Opus): `KEY=value` entries, keys compared without regard
/// to case, a key possibly repeated (the first value is used). Each field `TrackField.all`
/// declares is read from the comment that holds it in this system; a broken entry is passed
/// over, never an error.
struct VorbisComments: TagReader {
    /// The first value of each key, by its upper-cased key.
    private var values: [String: String] = [:]
    /// Every `METADATA_BLOCK_PICTURE` (a base64 FLAC PICTURE block), in order.
    private(set) var pictureBlocks: [String] = []
    /// Every `ARTIST` value, in order (a song by two artists repeats the comment).
    private(set) var artists: [String] = []

    /// Reads entries as the format stores them: UTF-8 bytes, `KEY=value`.
    init(entries: some Sequence<some Collection<UInt8>>) {
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: entry[..<equals], as: UTF8.self).uppercased()
            let value = String(decoding: entry[entry.index(after: equals)...], as: UTF8.self)
            guard !key.isEmpty, !value.isEmpty else { continue }
            if key == "ARTIST" && !artists.contains(value) { artists.append(value) }
            if key == "METADATA_BLOCK_PICTURE" {
                pictureBlocks.append(value)
            } else if values[key] == nil {
                values[key] = value
            }
        }
    }

    /// Reads the comments libvorbis and libopusfile hold: `count` entries of `lengths[i]` bytes.
    init(
        _ entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>?,
        count: Int32
    ) {
        let list = (0..<max(0, Int(count))).compactMap { index -> UnsafeRawBufferPointer? in
            guard let entry = entries?[index], let length = lengths?[index], length > 0 else { return nil }
            return UnsafeRawBufferPointer(start: entry, count: Int(length))
        }
        self.init(entries: list)
    }

    /// An Opus `R128_TRACK_GAIN` or `R128_ALBUM_GAIN` (Q7.8 dB toward -23 LUFS, after the
    /// header's output gain) as a ReplayGain gain: 5 dB more, ReplayGain's reference level
    /// being 5 dB louder (RFC 7845, section 5.2.1).
    func opusReplayGain(_ key: String) -> Double? {
        guard let text = values[key], let q78 = Int16(text.trimmingCharacters(in: " ")) else { return nil }
        return Double(q78) / 256 + 5
    }

    /// Each field from the comments `TagSource.vorbisComments` names.
    func value(of source: TagSource) -> TrackFieldValue? {
        let found = first(source.vorbisComments)
        switch source {
        case .summary, .frame, .genre, .userText: return found.map(TrackFieldValue.text)
        case .year: return found.flatMap(TagText.leadingYear).map(TrackFieldValue.number)
        case .number: return TagText.numberAndCount(found).0.map(TrackFieldValue.number)
        case .count(let id):
            let alone = found.flatMap { TagText.numberAndCount($0).0 }
            return (alone ?? TagText.numberAndCount(first(TagSource.number(ofFrame: id).vorbisComments)).1)
                .map(TrackFieldValue.number)
        case .replayGain: return found.flatMap(TagText.replayGain).map(TrackFieldValue.decimal)
        }
    }

    /// `CHAPTER001=00:01:30.500` with `CHAPTER001NAME=...` (the chapter extension of Vorbis
    /// comments, as `vorbiscomment`, Matroska tools and audiobook encoders write it).
    var chapters: [(start: Double, title: String?)] {
        values.compactMap { key, value -> (Int, Double, String?)? in
            guard key.hasPrefix(bytes: "CHAPTER"), key.utf8.count > 7 else { return nil }
            let digits = key.utf8.dropFirst(7)
            guard digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: digits, as: UTF8.self)),
                let start = ClockTime.seconds(value.trimmingCharacters(in: " "))
            else { return nil }
            return (number, start, values[key + "NAME"])
        }.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    private func first(_ keys: [String]?) -> String? { keys?.lazy.compactMap { values[$0] }.first }
}
