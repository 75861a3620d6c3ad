/// One chapter of an item (a podcast's `CHAP` frame, an audiobook's MP4 chapter, a Vorbis
/// comment's `CHAPTERnnn`): where it starts and ends, in seconds into the item, and its title.
public struct Chapter: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var title: String

    public init(start: Double, end: Double, title: String) {
        self.start = start
        self.end = end
        self.title = title
    }

    /// The most chapters an item keeps (a tag can claim any number).
    public static let maximumCount = 1000

    /// Chapters as a tag gives them (in any order, overlapping, past the end, untitled), made
    /// into the list an item plays: sorted by start; those not finite, at or past `duration` or
    /// starting where an earlier one starts dropped; each ending where the next starts (the last
    /// at `duration`), so the chapters tile the item from the first one's start; an untitled
    /// one called "Chapter N" (N from 1). A tag's own end times are not kept: a chapter that
    /// ended early would leave a stretch of the item in no chapter.
    public static func normalized(_ found: [(start: Double, title: String?)], duration: Double) -> [Chapter] {
        // Sorted by start, then by the tag's order: of two starting together, the first kept.
        let usable = found.enumerated().filter {
            $0.element.start.isFinite && $0.element.start >= 0 && $0.element.start < duration
        }
        var sorted: [(start: Double, title: String?)] = []
        for (_, entry) in usable.sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) })
        where sorted.last?.start != entry.start && sorted.count < maximumCount {
            sorted.append(entry)
        }
        return sorted.indices.map { index in
            let title = sorted[index].title.map(Self.trimmed) ?? ""
            return Chapter(
                start: sorted[index].start,
                end: index + 1 < sorted.count ? sorted[index + 1].start : duration,
                title: title.isEmpty ? "Chapter \(index + 1)" : title)
        }
    }

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let first = text.first, first == " " || first == "\u{0}" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\u{0}" { text = text.dropLast() }
        return String(text)
    }
}

extension [Chapter] {
    /// The index of the chapter playing at `seconds`: the last one that started, or the first
    /// before it starts; nil without chapters.
    public func index(at seconds: Double) -> Int? {
        guard !isEmpty else { return nil }
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if self[middle].start <= seconds { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// The chapter playing, as the snapshot shows it (`MPNowPlayingInfoPropertyChapterNumber`,
/// zero-based, and `...ChapterCount`).
public struct CurrentChapter: Sendable, Equatable {
    public var number: Int
    public var count: Int
    public var title: String
    public var start: Double
    public var end: Double

    public init(number: Int, count: Int, title: String, start: Double, end: Double) {
        self.number = number
        self.count = count
        self.title = title
        self.start = start
        self.end = end
    }

    /// The chapter of `chapters` playing at `seconds`; nil without chapters.
    public init?(_ chapters: [Chapter], at seconds: Double) {
        guard let index = chapters.index(at: seconds) else { return nil }
        let chapter = chapters[index]
        self.init(number: index, count: chapters.count, title: chapter.title, start: chapter.start, end: chapter.end)
    }
}
