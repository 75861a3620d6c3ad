import CSQLiteShim
import PlaybackModel

/// The library's regular expressions (`LibraryQuery.Comparison.matches`): PCRE2, compiled as
/// the index's `regexp()` compiles them, so that a bad one is refused before a query runs.
enum LibraryPattern {
    /// Why `pattern` does not compile; nil when it does.
    static func problem(_ pattern: String) -> String? {
        var message = [CChar](repeating: 0, count: 200)
        let status = pattern.withCString { text in
            playbackd_regexp_check(text, Int32(pattern.utf8.count), &message, Int32(message.count))
        }
        return status == 0
            ? nil : String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first of `filters`' patterns that does not compile, and why.
    static func problem(in filters: [LibraryQuery.Filter]) -> String? {
        filters.lazy.filter { $0.comparison == .matches }.compactMap { filter in
            problem(filter.value).map { "'\(filter.value)' is not a regular expression: \($0)" }
        }.first
    }
}
