import PlaybackModel

/// What a placeholder's value is, which decides the filters it accepts and how it prints
/// without one.
public enum TemplateValueKind: String, Sendable {
    /// Text, printed as it is.
    case text
    /// Seconds, printed as whole seconds; `|time` prints M:SS or H:MM:SS.
    case seconds
    /// A number, printed without a fraction when it has none.
    case number
    /// The playback state (`playing`, `paused`, `stopped`, `interrupted`); `|icon` prints a glyph.
    case state
    /// A play mode (`off`, `one`, `all`; `off`, `items`); `|icon` prints a glyph, nothing for off.
    case mode
}

/// A value a template can show: every field of the now-playing snapshot and a few derived
/// from it. The track fields come from `TrackField.all`; the rest are declared here, once.
/// The parser, `--help`, the man page and docs/cli.md follow.
public struct TemplateField: Sendable, Equatable {
    public let name: String
    public let kind: TemplateValueKind
    public let summary: String
    /// Whether the value changes while playing even when nothing is pushed, so a `watch`
    /// line that shows it is printed again at each second boundary.
    public let followsPosition: Bool
    private let read: @Sendable (SnapshotView) -> TemplateValue?

    init(
        _ name: String, _ kind: TemplateValueKind, followsPosition: Bool = false, _ summary: String,
        value: @escaping @Sendable (SnapshotView) -> TemplateValue?
    ) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.followsPosition = followsPosition
        read = value
    }

    /// The value at the view's instant; nil when there is none (nothing current, untagged).
    func value(in view: SnapshotView) -> TemplateValue? { read(view) }

    public static func == (lhs: TemplateField, rhs: TemplateField) -> Bool { lhs.name == rhs.name }

    /// The field called `name`.
    public static func named(_ name: String) -> TemplateField? { all.first { $0.name == name } }

    /// Every field, in the order `--help` lists them.
    public static let all: [TemplateField] =
        [
            TemplateField("state", .state, "playing, paused, stopped or interrupted") {
                .text($0.nowPlaying.state.rawValue)
            }
        ]
        + TrackField.all.map(TemplateField.init(track:))
        + [
            TemplateField(
                "elapsed", .seconds, followsPosition: true, "the position, extrapolated to the moment of printing"
            ) {
                $0.position.map(TemplateValue.seconds)
            },
            TemplateField("remaining", .seconds, followsPosition: true, "duration minus position") { view in
                view.position.flatMap { position in view.duration.map { .seconds(max(0, $0 - position)) } }
            },
            percent,
            TemplateField("queuePosition", .number, "the current item's place in the queue, from 1") {
                $0.nowPlaying.queueIndex.map { .number(Double($0 + 1)) }
            },
            TemplateField("queueIndex", .number, "the current item's index in the queue, from 0 (as in the protocol)") {
                $0.nowPlaying.queueIndex.map { .number(Double($0)) }
            },
            TemplateField("queueCount", .number, "the number of items in the queue") { view in
                view.nowPlaying.item == nil ? nil : .number(Double(view.nowPlaying.queueCount))
            },
            TemplateField("rate", .number, "the playback rate while audio is advancing, else 0") { view in
                view.nowPlaying.item == nil ? nil : .number(view.nowPlaying.rate)
            },
            TemplateField("assetURL", .text, "the item's file URL") { view in
                view.nowPlaying.item.map { .text(StreamURL.url(ofItem: $0.path)) }
            },
            TemplateField("repeatMode", .mode, "off, one or all") { .text($0.nowPlaying.repeatMode.rawValue) },
            TemplateField("shuffleMode", .mode, "off or items") { .text($0.nowPlaying.shuffleMode.rawValue) },
            TemplateField("singleMode", .mode, "off, on or once (stop after the current item)") {
                .text($0.nowPlaying.singleMode.rawValue)
            },
            TemplateField("consumeMode", .mode, "off, on or once") { .text($0.nowPlaying.consumeMode.rawValue) },
            TemplateField("volume", .number, "the software volume, 0 - 100 (%)") { .number($0.nowPlaying.volume) },
            TemplateField("defaultRate", .number, "the playback rate chosen, 0.5 - 3 (pitch kept), also while paused") {
                .number($0.nowPlaying.defaultRate)
            },
            TemplateField("routeChange", .text, "the latest route change: oldDeviceUnavailable or newDeviceAvailable") {
                $0.nowPlaying.routeChange.map { .text($0.reason.rawValue) }
            },
            TemplateField("routeDevice", .text, "the device the latest route change was about") {
                $0.nowPlaying.routeChange.map { .text($0.device) }
            },
            TemplateField("deviceError", .text, "why playback is interrupted: the device's error") {
                $0.nowPlaying.deviceError.map { .text($0) }
            },
            TemplateField("chapterTitle", .text, "the title of the chapter playing") {
                $0.nowPlaying.chapter.map { .text($0.title) }
            },
            TemplateField(
                "chapterNumber", .number, "the chapter playing, from 1 (the protocol's chapterNumber counts from 0)"
            ) {
                $0.nowPlaying.chapter.map { .number(Double($0.number + 1)) }
            },
            TemplateField("chapterCount", .number, "the number of chapters of the item") {
                $0.nowPlaying.chapter.map { .number(Double($0.count)) }
            },
            TemplateField("chapterStart", .seconds, "where the chapter playing starts, in the item") {
                $0.nowPlaying.chapter.map { .seconds($0.start) }
            },
            TemplateField("chapterEnd", .seconds, "where the chapter playing ends, in the item") {
                $0.nowPlaying.chapter.map { .seconds($0.end) }
            },
            TemplateField("loopStart", .seconds, "where the A-B loop starts, in the item") {
                $0.nowPlaying.loopRange.map { .seconds($0.start) }
            },
            TemplateField("loopEnd", .seconds, "where the A-B loop ends, in the item") {
                $0.nowPlaying.loopRange.map { .seconds($0.end) }
            },
            TemplateField("loopPass", .number, "the A-B loop's pass playing, from 1") {
                $0.nowPlaying.loopRange.map { .number(Double($0.pass)) }
            },
            TemplateField(
                "phraseNumber", .number,
                "the phrase phrase mode plays, from 1 (the protocol's phraseNumber counts from 0)"
            ) {
                $0.nowPlaying.phrase.map { .number(Double($0.number + 1)) }
            },
            TemplateField("phraseCount", .number, "the number of phrases found in the item") {
                $0.nowPlaying.phrase.map { .number(Double($0.count)) }
            },
            TemplateField("phraseRepetition", .number, "which repeat of the phrase plays, from 1") {
                $0.nowPlaying.phrase.map { .number(Double($0.repetition + 1)) }
            },
            TemplateField("phraseRepeats", .number, "how many times phrase mode plays each phrase") {
                $0.nowPlaying.phraseMode.map { .number(Double($0.repeats)) }
            },
            TemplateField("phraseGap", .text, "\"gap\" while the silence after a phrase plays (your turn to speak)") {
                $0.nowPlaying.phrase.flatMap { $0.inGap ? .text("gap") : nil }
            },
            TemplateField(
                "sleepRemaining", .seconds, followsPosition: true,
                "the time left before the sleep timer pauses playback (to its time, or the end of the item or chapter)"
            ) {
                $0.nowPlaying.sleepRemaining(at: $0.now).map(TemplateValue.seconds)
            },
        ]

    /// The position as a whole percentage of the duration.
    static let percent = TemplateField(
        "percent", .number, followsPosition: true, "position as a whole percentage of the duration"
    ) { view in
        view.position.flatMap { position in
            view.duration.flatMap { $0 > 0 ? .number((100 * position / $0).rounded(.down)) : nil }
        }
    }

    /// A track field of the current item.
    init(track field: TrackField) {
        let kind: TemplateValueKind =
            switch field.storage {
            case .requiredText, .text, .path: .text
            case .number, .requiredNumber, .decimal: .number
            case .seconds: .seconds
            }
        self.init(field.key, kind, field.summary) { view in
            guard let item = view.nowPlaying.item, let value = field.value(in: item.metadata) else { return nil }
            switch (value, field.storage) {
            case (.text(let path), .path): return .text(FileURL.from(path: path))
            case (.text(let text), _): return text.isEmpty ? nil : .text(text)
            case (.number(let number), _): return .number(Double(number))
            case (.seconds(let seconds), _): return .seconds(seconds)
            case (.decimal(let value), _): return .number(value)
            }
        }
    }
}

/// A placeholder's value on its way through the filters.
enum TemplateValue: Equatable {
    case text(String)
    case seconds(Double)
    case number(Double)

    /// How the value prints when no filter formats it.
    var plainText: String {
        switch self {
        case .text(let text): text
        case .seconds(let seconds): String(Int(max(0, seconds).rounded(.down)))
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        }
    }
}
