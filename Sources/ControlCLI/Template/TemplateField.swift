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
/// from it. Declared once; the parser, `--help`, the man page and docs/cli.md follow.
public enum TemplateField: String, CaseIterable, Sendable {
    case state, title, artist, album, albumArtist, composer, genre, year
    case trackNumber, trackCount, discNumber, discCount
    case elapsed, duration, remaining, percent
    case queuePosition, queueIndex, queueCount
    case rate, assetURL, artworkURL
    case repeatMode, shuffleMode

    public var kind: TemplateValueKind {
        switch self {
        case .state: .state
        case .repeatMode, .shuffleMode: .mode
        case .title, .artist, .album, .albumArtist, .composer, .genre, .assetURL, .artworkURL: .text
        case .elapsed, .duration, .remaining: .seconds
        case .percent, .queuePosition, .queueIndex, .queueCount, .rate, .year, .trackNumber, .trackCount,
            .discNumber, .discCount:
            .number
        }
    }

    /// Whether the value changes while playing even when nothing is pushed, so a `watch`
    /// line that shows it is printed again at each second boundary.
    public var followsPosition: Bool {
        switch self {
        case .elapsed, .remaining, .percent: true
        default: false
        }
    }

    public var summary: String {
        switch self {
        case .state: "playing, paused, stopped or interrupted"
        case .title: "the item's title (its file name when untagged)"
        case .artist: "the artist, when tagged"
        case .album: "the album, when tagged"
        case .albumArtist: "the album artist (TPE2), when tagged"
        case .composer: "the composer, when tagged"
        case .genre: "the genre, when tagged"
        case .year: "the year, when tagged"
        case .trackNumber, .trackCount: "the track number and the album's track count, when tagged"
        case .discNumber, .discCount: "the disc number and count, when tagged"
        case .artworkURL: "a file URL of the cover (embedded picture or cover.jpg), when there is one"
        case .elapsed: "the position, extrapolated to the moment of printing"
        case .duration: "the item's duration"
        case .remaining: "duration minus position"
        case .percent: "position as a whole percentage of the duration"
        case .queuePosition: "the current item's place in the queue, from 1"
        case .queueIndex: "the current item's index in the queue, from 0 (as in the protocol)"
        case .queueCount: "the number of items in the queue"
        case .rate: "1 while audio is advancing, else 0"
        case .assetURL: "the item's file URL"
        case .repeatMode: "off, one or all"
        case .shuffleMode: "off or items"
        }
    }

    /// The value at the view's instant; nil when there is none (nothing current, untagged).
    func value(in view: SnapshotView) -> TemplateValue? {
        switch self {
        case .state: .text(view.state)
        case .repeatMode, .shuffleMode: view.text(rawValue).map(TemplateValue.text)
        case .title: view.text("title").map(TemplateValue.text)
        case .artist: view.text("artist").map(TemplateValue.text)
        case .album: view.text("album").map(TemplateValue.text)
        case .assetURL, .artworkURL, .albumArtist, .composer, .genre: view.text(rawValue).map(TemplateValue.text)
        case .year, .trackNumber, .trackCount, .discNumber, .discCount: view.number(rawValue).map(TemplateValue.number)
        case .elapsed: view.position.map(TemplateValue.seconds)
        case .duration: view.hasItem ? view.duration.map(TemplateValue.seconds) : nil
        case .remaining:
            view.position.flatMap { position in view.duration.map { .seconds(max(0, $0 - position)) } }
        case .percent:
            view.position.flatMap { position in
                view.duration.flatMap { $0 > 0 ? .number((100 * position / $0).rounded(.down)) : nil }
            }
        case .queuePosition: view.number("queueIndex").map { .number($0 + 1) }
        case .queueIndex: view.number("queueIndex").map(TemplateValue.number)
        case .queueCount: view.number("queueCount").map(TemplateValue.number)
        case .rate: view.hasItem ? view.number("rate").map(TemplateValue.number) : nil
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
