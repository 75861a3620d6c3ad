import PlaybackModel

/// The socket's form of a `CommandOutcome`: the members a successful reply carries beside
/// `status` (and a failed `enqueue` carries its rejections), written by the daemon and read back
/// by `playbackctl`.
extension CommandOutcome {
    /// The reply's members.
    public var fields: [(String, JSONValue)] {
        switch self {
        case .done: []
        case .position(let seconds): [("position", .number(seconds))]
        case .nowPlaying(let nowPlaying): [("nowPlaying", nowPlaying.json)]
        case .commands(let availability): [("commands", availability.json)]
        case .queuePage(let page):
            [
                ("currentIndex", .optional(page.currentIndex.map(Double.init))),
                ("count", .number(Double(page.count))),
                ("offset", .number(Double(page.offset))),
                ("repeatMode", .string(page.repeatMode.rawValue)),
                ("shuffleMode", .string(page.shuffleMode.rawValue)),
                ("items", .array(page.items.map(\.json))),
            ]
        case .enqueued(let outcome):
            [
                ("added", .array(outcome.added.map { .number(Double($0)) })),
                (
                    "rejected",
                    .array(
                        outcome.rejected.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })
                ),
            ] + (outcome.queueCount.map { [("queueCount", JSONValue.number(Double($0)))] } ?? [])
        case .equalizer(let equalizer, let presets):
            [("equalizer", equalizer.json)]
                + (presets.map { [("presets", JSONValue.array($0.map(JSONValue.string)))] } ?? [])
        case .removed(let count, let queueCount):
            [("removed", .number(Double(count))), ("queueCount", .number(Double(queueCount)))]
        case .chapters(let chapters): [("chapters", chapters.json)]
        case .bookmarks(let bookmarks): [("bookmarks", .array(bookmarks.map(\.json)))]
        case .phrases(let list):
            if case .object(let members) = list.json { members } else { [] }
        case .library(let page):
            [("items", .array(page.items.json)), ("total", .number(Double(page.total)))]
        case .libraryStatus(let status): [("library", status.json)]
        case .listeningHistory(let page):
            [("listens", .array(page.listens.map(\.json))), ("total", .number(Double(page.total)))]
        case .scrobbleStatus(let services): [("services", .array(services.map(\.json)))]
        case .scrobbleLogin(let login): login.members
        case .libraryFailures(let failures, let total):
            [
                (
                    "failures",
                    .array(failures.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })
                ),
                ("total", .number(Double(total))),
            ]
        }
    }

    /// Reads a successful reply of the command whose reply is `kind` (`CommandSpec.replies`).
    public init(json reply: JSONValue, kind: Kind) throws(WireDecodingError) {
        let reader = WireReader(object: reply, context: "reply")
        switch kind {
        case .done:
            self = .done
        case .position:
            self = .position(try reader.number("position"))
        case .nowPlaying:
            self = .nowPlaying(try NowPlaying(json: reply["nowPlaying"] ?? .null))
        case .commands:
            self = .commands(try CommandAvailability(json: try reader.array("commands")))
        case .queuePage:
            var items: [QueueItem] = []
            for item in try reader.array("items") { items.append(try QueueItem(json: item)) }
            self = .queuePage(
                QueuePage(
                    currentIndex: try reader.optionalWholeNumber("currentIndex"),
                    count: try reader.wholeNumber("count"),
                    offset: try reader.wholeNumber("offset"), repeatMode: try reader.choice("repeatMode"),
                    shuffleMode: try reader.choice("shuffleMode"), items: items))
        case .enqueued:
            self = .enqueued(try EnqueueOutcome(json: reply))
        case .equalizer:
            guard let json = reply["equalizer"] else { throw WireDecodingError("reply: 'equalizer' is missing") }
            let presets = reply["presets"].map { $0.arrayValue?.compactMap(\.stringValue) ?? [] }
            self = .equalizer(try Equalizer(json: json), presets: presets)
        case .removed:
            self = .removed(count: try reader.wholeNumber("removed"), queueCount: try reader.wholeNumber("queueCount"))
        case .chapters:
            self = .chapters(try [Chapter](json: reply["chapters"] ?? .null))
        case .phrases:
            self = .phrases(try PhraseList(json: reply))
        case .bookmarks:
            var bookmarks: [Bookmark] = []
            for entry in try reader.array("bookmarks") { bookmarks.append(try Bookmark(json: entry)) }
            self = .bookmarks(bookmarks)
        case .library:
            self = .library(
                LibraryPage(
                    items: try LibraryPage.Items(json: try reader.array("items")),
                    total: try reader.wholeNumber("total")))
        case .libraryStatus:
            self = .libraryStatus(try LibraryStatus(json: reply["library"] ?? .null))
        case .listeningHistory:
            var listens: [Listen] = []
            for entry in try reader.array("listens") { listens.append(try Listen(json: entry)) }
            self = .listeningHistory(ListenPage(listens: listens, total: try reader.wholeNumber("total")))
        case .scrobbleStatus:
            var services: [ScrobbleState] = []
            for entry in try reader.array("services") { services.append(try ScrobbleState(json: entry)) }
            self = .scrobbleStatus(services)
        case .scrobbleLogin:
            self = .scrobbleLogin(
                ScrobbleLogin(
                    url: try reader.optionalString("url"), token: try reader.optionalString("token"),
                    authorised: reply["authorised"]?.boolValue ?? false))
        case .libraryFailures:
            var failures: [LibraryFailure] = []
            for entry in try reader.array("failures") {
                let failure = WireReader(object: entry, context: "library failure")
                failures.append(LibraryFailure(path: try failure.string("path"), reason: try failure.string("reason")))
            }
            self = .libraryFailures(failures, total: try reader.wholeNumber("total"))
        }
    }
}

extension EnqueueOutcome {
    /// Reads an `enqueue` reply, successful or not (a failed one still lists its rejections).
    public init(json reply: JSONValue) throws(WireDecodingError) {
        let reader = WireReader(object: reply, context: "enqueue reply")
        var added: [UInt64] = []
        for id in reply["added"]?.arrayValue ?? [] {
            guard let number = id.numberValue, number >= 0, number == number.rounded() else {
                throw WireDecodingError("enqueue reply: 'added' holds something other than an item id")
            }
            added.append(UInt64(number))
        }
        var rejected: [Rejection] = []
        for entry in reply["rejected"]?.arrayValue ?? [] {
            let rejection = WireReader(object: entry, context: "rejection")
            rejected.append(Rejection(path: try rejection.string("path"), reason: try rejection.string("reason")))
        }
        self.init(added: added, rejected: rejected, queueCount: try reader.optionalWholeNumber("queueCount"))
    }
}

extension CommandAvailability {
    /// Reads the `commands` reply's list; entries for commands this build does not know (a
    /// newer daemon's) are passed over.
    public init(json entries: [JSONValue]) throws(WireDecodingError) {
        self.init(disabled: [], skipForwardIntervals: [], skipBackwardIntervals: [])
        for entry in entries {
            let reader = WireReader(object: entry, context: "commands entry")
            guard let name = CommandName(rawValue: try reader.string("command")) else { continue }
            guard let enabled = entry["enabled"]?.boolValue else {
                throw WireDecodingError("commands entry: 'enabled' is not a boolean")
            }
            _ = set(name, enabled: enabled)
            let intervals = entry["preferredIntervals"]?.arrayValue?.compactMap(\.numberValue)
            if name == .skipForward { skipForwardIntervals = intervals ?? [] }
            if name == .skipBackward { skipBackwardIntervals = intervals ?? [] }
        }
    }
}
