import PlaybackModel
import SystemSupport

/// Where one tagging system keeps each field `TrackField.all` declares.
protocol TagReader {
    /// The value `source` names, read from these tags; nil when they do not hold it.
    func value(of source: TagSource) -> TrackFieldValue?
    /// The chapters these tags hold, as they hold them (`Chapter.normalized` makes the list).
    var chapters: [(start: Double, title: String?)] { get }
    /// Every value of the artist tag, for tagging systems that repeat a tag; empty otherwise.
    var artists: [String] { get }
}

extension TagReader {
    var chapters: [(start: Double, title: String?)] { [] }
    var artists: [String] { [] }

    /// `metadata` with every field and the chapters these tags hold.
    func applied(to metadata: TrackMetadata) -> TrackMetadata {
        var metadata = metadata
        for field in TrackField.all {
            guard let source = field.source, let value = value(of: source) else { continue }
            field.set(value, in: &metadata)
        }
        metadata.chapters = Chapter.normalized(chapters, duration: metadata.duration)
        metadata.otherArtists = Array(artists.dropFirst())
        return metadata
    }
}

/// How tag values written as text read as numbers, the same in every tagging system (ID3v2
/// frames, Vorbis comments).
enum TagText {
    /// `-6.20 dB` → -6.2, `0.988312` → 0.988312; nil for anything else (or not finite).
    static func replayGain(_ text: String) -> Double? {
        var number = Substring(text).drop { $0 == " " }
        while number.last == " " { number = number.dropLast() }
        if number.lowercased().hasSuffix(bytes: "db") { number = number.dropLast(2) }
        while number.last == " " { number = number.dropLast() }
        guard let value = Double(number), value.isFinite else { return nil }
        return value
    }

    /// `3/12` → (3, 12); `7` → (7, nil); anything else → (nil, nil).
    static func numberAndCount(_ text: String?) -> (Int?, Int?) {
        guard let text else { return (nil, nil) }
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
        let number = parts.first.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let count = parts.count > 1 ? Int(parts[1]).flatMap { $0 > 0 ? $0 : nil } : nil
        return (number, count)
    }

    /// The year a date starts with (`2004`, `2010-05-06`).
    static func leadingYear(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard digits.count == 4, let year = Int(digits), year > 0 else { return nil }
        return year
    }
}
