/// What a step heard, carried by its `changed` line: an item became audible, or a hearing of it
/// ended, with the item's own seconds heard. A listening log or a scrobbler needs nothing else.
public enum HearingEvent: Sendable, Equatable {
    /// `{"itemID":N,"assetURL":"…","began":T}` in the line's `audible`.
    case audible(itemID: UInt64, assetURL: String, began: Double)
    /// `{"itemID":N,"assetURL":"…","began":T,"seconds":S,"ending":"…"}` in the line's `heard`.
    case heard(itemID: UInt64, assetURL: String, began: Double, seconds: Double, ending: String)

    /// The member of the line that lists it.
    var member: String {
        switch self {
        case .audible: "audible"
        case .heard: "heard"
        }
    }

    var json: JSONValue {
        switch self {
        case .audible(let id, let url, let began):
            .object([("itemID", .number(Double(id))), ("assetURL", .string(url)), ("began", .number(began))])
        case .heard(let id, let url, let began, let seconds, let ending):
            .object([
                ("itemID", .number(Double(id))), ("assetURL", .string(url)), ("began", .number(began)),
                ("seconds", .number(seconds)), ("ending", .string(ending)),
            ])
        }
    }
}
