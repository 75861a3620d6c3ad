import ControlProtocol
import PlaybackModel

/// The socket front end's half of a command: its domain result as a JSON reply.
extension Response {
    init(_ result: CommandResult) {
        switch result {
        case .success(let outcome):
            self.init(status: .success, fields: outcome.fields)
        case .failure(let failure):
            self.init(status: failure.status, message: failure.message, fields: failure.outcome?.fields ?? [])
        }
    }
}

extension CommandOutcome {
    /// The reply's fields.
    var fields: [(String, JSONValue)] {
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
            [("equalizer", equalizer.json)] + (presets.map { [("presets", JSONValue.array($0.map(JSONValue.string)))] } ?? [])
        case .removed(let count, let queueCount):
            [("removed", .number(Double(count))), ("queueCount", .number(Double(queueCount)))]
        }
    }
}
