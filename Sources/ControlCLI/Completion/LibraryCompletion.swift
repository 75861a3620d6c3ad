import ControlClient
import ControlProtocol
import PlaybackModel

/// `playbackctl --complete-filter FIELD=PREFIX`: the names in the running daemon's library that
/// complete a `find` or `list` filter, one `FIELD=NAME` per line, for the completion scripts.
/// Without `=`, the fields that complete. The library folds case and accents, so `artist=beyo`
/// completes to `artist=Beyoncé`.
enum LibraryCompletion {
    /// The fields whose values complete, each with the entity that lists its names.
    static let entities: [(field: String, entity: LibraryQuery.Entity)] = [
        ("artist", .artists), ("albumArtist", .albumArtists), ("album", .albums), ("genre", .genres),
        ("composer", .composers),
    ]
    /// The most names offered at once (a shell lists them all).
    static let limit = 200
    /// A completion that waits longer than this for the daemon offers nothing.
    static let timeout = 1.0

    /// The query that finds the names completing `prefix` in `field`; nil for a field without one.
    static func query(field: String, prefix: String) -> LibraryQuery? {
        guard let entity = entities.first(where: { $0.field == field })?.entity,
            let libraryField = LibraryField.named(field)
        else { return nil }
        var query = LibraryQuery(entity: entity, limit: limit)
        if !prefix.isEmpty { query.filters = [LibraryQuery.Filter(libraryField, .startsWith, prefix)] }
        return query
    }

    /// The completions of `word` from the daemon at `path`: nothing when it cannot be asked.
    static func candidates(_ word: String, path: String) -> [String] {
        guard let equals = word.firstIndex(of: "=") else {
            return entities.map { $0.field + "=" }.filter { $0.hasPrefix(word) }
        }
        let field = String(word[..<equals])
        let prefix = String(word[word.index(after: equals)...])
        guard let query = query(field: field, prefix: prefix), let client = try? ControlClient(path: path) else {
            return []
        }
        client.replyTimeout = timeout
        let request = JSONValue.object([("command", .string(CommandName.libraryQuery.rawValue))] + query.members)
        guard let reply = try? client.request(request), reply.isSuccess,
            case .library(let page)? = try? CommandOutcome(json: reply, kind: .library)
        else { return [] }
        let names: [String] =
            switch page.items {
            case .albums(let albums): albums.map(\.album)
            case .names(let names): names.map(\.name)
            case .songs: []
            }
        // The entity lists every name of the songs found (a song's other artists too), and the
        // library's folding also drops punctuation: only names that begin as typed stay.
        var seen = Set<String>()
        return names.filter { name in
            !name.contains("\n") && seen.insert(name).inserted && Self.mayStart(name, with: prefix)
        }.map { field + "=" + $0 }
    }

    /// Whether `name` may begin with `prefix` as the library folds them: the same letters,
    /// whatever their case; a letter that is not ASCII in either may be the other's folded form.
    static func mayStart(_ name: String, with prefix: String) -> Bool {
        var letters = name.lowercased().makeIterator()
        for wanted in prefix.lowercased() {
            guard let letter = letters.next() else { return false }
            if letter != wanted && letter.isASCII && wanted.isASCII { return false }
        }
        return true
    }
}
