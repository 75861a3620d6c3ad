import CMPG123
import PlaybackModel
import SystemSupport

/// Reads the tags libmpg123 parsed (ID3v2.2 to 2.4, preferred, else ID3v1). libmpg123
/// converts every ID3v2 text encoding (Latin-1, UTF-16 with BOM, UTF-16BE, UTF-8) to UTF-8 and
/// promotes ID3v2.2's three-letter frame names to 2.3's, so one reading serves every version.
/// A broken tag yields fewer fields, never an error: the title falls back to the file name.
enum ID3Reader {
    static func metadata(
        _ handle: OpaquePointer, path: String, format: AudioFormat,
        frames: Int?
    ) -> TrackMetadata {
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        _ = mpg123_id3(handle, &v1, &v2)
        let tags = Tags(
            v1: v1?.pointee, v2: v2?.pointee, frames: textFrames(v2?.pointee), userTexts: userTexts(v2?.pointee),
            chapters: rawChapters(handle))
        return tags.applied(to: .untagged(path: path, format: format, frames: frames))
    }

    /// The chapters of the raw tag libmpg123 kept (only when probing, with pictures).
    private static func rawChapters(_ handle: OpaquePointer) -> [(start: Double, title: String?)] {
        var raw1: UnsafeMutablePointer<UInt8>?
        var raw2: UnsafeMutablePointer<UInt8>?
        var size1 = 0
        var size2 = 0
        guard mpg123_id3_raw(handle, &raw1, &size1, &raw2, &size2) == MPG123_OK.rawValue, let raw2, size2 > 0 else {
            return []
        }
        return ID3Chapters.read(rawTag: UnsafeBufferPointer(start: raw2, count: size2))
    }

    /// The tags of one file, read field by field as `TrackField.all` declares.
    private struct Tags: TagReader {
        let v1: mpg123_id3v1?
        let v2: mpg123_id3v2?
        /// ID3v2 text frames by their 2.3/2.4 name.
        let frames: [String: String]
        /// ID3v2 `TXXX` frames by their description, upper-cased.
        let userTexts: [String: String]
        let chapters: [(start: Double, title: String?)]

        func value(of source: TagSource) -> TrackFieldValue? {
            switch source {
            case .summary(let field): summary(field).map(TrackFieldValue.text)
            case .frame(let id): frames[id].map(TrackFieldValue.text)
            case .genre:
                ((frames["TCON"] ?? text(v2?.genre)).flatMap(ID3Genres.resolve)
                    ?? v1.flatMap { ID3Genres.name(Int($0.genre)) }).map(TrackFieldValue.text)
            case .year:
                ((frames["TDRC"] ?? frames["TYER"] ?? text(v2?.year)).flatMap(TagText.leadingYear)
                    ?? v1.flatMap { latin1($0.year) }.flatMap(TagText.leadingYear)).map(TrackFieldValue.number)
            case .number(let id):
                (TagText.numberAndCount(frames[id]).0 ?? (id == "TRCK" ? v1.flatMap(id3v11Track) : nil))
                    .map(TrackFieldValue.number)
            case .count(let id): TagText.numberAndCount(frames[id]).1.map(TrackFieldValue.number)
            case .replayGain(let description):
                userTexts[description.uppercased()].flatMap(TagText.replayGain).map(TrackFieldValue.decimal)
            case .userText(let id3, _): userTexts[id3.uppercased()].map(TrackFieldValue.text)
            }
        }

        private func summary(_ field: TagSource.Summary) -> String? {
            switch field {
            case .title: text(v2?.title) ?? v1.flatMap { latin1($0.title) }
            case .artist: text(v2?.artist) ?? v1.flatMap { latin1($0.artist) }
            case .album: text(v2?.album) ?? v1.flatMap { latin1($0.album) }
            }
        }
    }

    /// The front cover (picture type 3), else the first picture.
    static func coverPicture(_ handle: OpaquePointer) -> EmbeddedPicture? {
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue, let tag = v2?.pointee else { return nil }
        guard let pictures = tag.picture, tag.pictures > 0 else {
            guard tag.version == 2 else { return nil }
            var raw1: UnsafeMutablePointer<UInt8>?
            var raw2: UnsafeMutablePointer<UInt8>?
            var size1 = 0
            var size2 = 0
            guard mpg123_id3_raw(handle, &raw1, &size1, &raw2, &size2) == MPG123_OK.rawValue, let raw2 else {
                return nil
            }
            return ID3v22Pictures.cover(rawTag: UnsafeBufferPointer(start: raw2, count: size2))
        }
        let all = UnsafeBufferPointer(start: pictures, count: tag.pictures)
        guard let chosen = all.first(where: { $0.type == 3 }) ?? all.first, let data = chosen.data, chosen.size > 0
        else { return nil }
        let mime = string(chosen.mime_type) ?? ""
        return EmbeddedPicture(
            mimeType: mime.lowercased(), data: Array(UnsafeBufferPointer(start: data, count: chosen.size)))
    }

    /// Every text frame by its (2.3/2.4) name, first value wins.
    private static func textFrames(_ tag: mpg123_id3v2?) -> [String: String] {
        guard let tag, let list = tag.text else { return [:] }
        var result: [String: String] = [:]
        for entry in UnsafeBufferPointer(start: list, count: tag.texts) {
            let id = withUnsafeBytes(of: entry.id) { String(decoding: $0, as: UTF8.self) }
            guard result[id] == nil,
                let value = string(entry.text)
            else { continue }
            result[id] = value
        }
        return result
    }

    /// Every `TXXX` frame by its description (upper-cased: taggers write `replaygain_track_gain`
    /// and `REPLAYGAIN_TRACK_GAIN` alike), first value wins.
    private static func userTexts(_ tag: mpg123_id3v2?) -> [String: String] {
        guard let tag, let list = tag.extra else { return [:] }
        var result: [String: String] = [:]
        for entry in UnsafeBufferPointer(start: list, count: tag.extras) {
            guard let description = string(entry.description), let value = string(entry.text) else { continue }
            let key = description.uppercased()
            if result[key] == nil { result[key] = value }
        }
        return result
    }

    /// ID3v1.1 keeps a track number in the comment's last byte after a zero byte.
    private static func id3v11Track(_ tag: mpg123_id3v1) -> Int? {
        withUnsafeBytes(of: tag.comment) { bytes in
            bytes.count == 30 && bytes[28] == 0 && bytes[29] != 0 ? Int(bytes[29]) : nil
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<mpg123_string>?) -> String? {
        pointer.flatMap { string($0.pointee) }
    }

    /// libmpg123 converts ID3v2 text of every encoding to UTF-8.
    private static func string(_ s: mpg123_string) -> String? {
        guard let p = s.p, s.fill > 0 else { return nil }
        let value = String(
            decoding: UnsafeRawBufferPointer(start: p, count: s.fill - 1)
                .prefix { $0 != 0 }, as: UTF8.self)
        return nonEmpty(value)
    }

    /// ID3v1 fields are fixed-size, NUL- or space-padded Latin-1.
    private static func latin1<T>(_ field: T) -> String? {
        withUnsafeBytes(of: field) { bytes in
            let scalars = bytes.prefix { $0 != 0 }.map { Character(Unicode.Scalar($0)) }
            return nonEmpty(String(scalars))
        }
    }

    private static func nonEmpty(_ s: String) -> String? {
        let trimmed = s.trimmingTrailingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\u{0}" { s = s.dropLast() }
        return String(s)
    }

    func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}

extension Substring {
    func trimmingCharacters(in character: Character) -> String { String(self).trimmingCharacters(in: character) }
}
