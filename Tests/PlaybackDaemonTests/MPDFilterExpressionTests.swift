import PlaybackModel
import Testing

@testable import PlaybackDaemon

/// MPD's filter expressions as the library's filters: negation and regular expressions (issue 48).
struct MPDFilterExpressionTests {
    private func parse(_ text: String) -> Result<([LibraryQuery.Filter], String?), MPDError> {
        var expression = MPDFilterExpression(text: text, roots: ["/music"])
        return expression.parse()
    }

    private func filters(_ text: String) throws -> [LibraryQuery.Filter] {
        try parse(text).get().0
    }

    @Test("!= and (!(...)) negate one filter; two negations cancel")
    func negation() throws {
        let title = try #require(LibraryField.named("title"))
        #expect(try filters("(title != 'Hey You')") == [.init(title, .equalTo, "Hey You", negated: true)])
        #expect(try filters("(!(title contains 'thin'))") == [.init(title, .contains, "thin", negated: true)])
        #expect(try filters("(!(!(title == 'x')))") == [.init(title, .equalTo, "x")])
        #expect(try filters("(title =~ '^the ')") == [.init(title, .matches, "^the ")])
        #expect(try filters("(title !~ 'you$')") == [.init(title, .matches, "you$", negated: true)])
        #expect(
            try filters("((album == 'The Wall') AND (!(title == 'x')))").map(\.isNegated) == [false, true])
    }

    @Test("a negated combination is a group left out; the filters beside it stay filters")
    func negatedCombination() throws {
        let (title, album) = (try #require(LibraryField.named("title")), try #require(LibraryField.named("album")))
        var expression = MPDFilterExpression(
            text: "((artist == 'Q') AND (!((title == 'a') AND (album != 'b'))))", roots: ["/music"])
        let filters = try expression.parse().get().0
        #expect(filters.map(\.field.name) == ["artist"])
        #expect(expression.exclusions == [[.init(title, .equalTo, "a"), .init(album, .equalTo, "b", negated: true)]])
    }

    @Test("a negated group inside a negation, or negated free text, is refused with the reason")
    func refusals() {
        func message(_ text: String) -> String? {
            if case .failure(let error) = parse(text) { return error.message }
            return nil
        }
        #expect(
            message("(!((title == 'a') AND (!((album == 'b') AND (title == 'c')))))")
                == "a negated group inside a negation is not supported")
        #expect(message("(!((title == 'a') AND (any == 'b')))") == "'any' cannot be negated")
        #expect(message("(any != 'wall')") == "'any' cannot be negated")
        #expect(message("(file =~ 'a.*')") == "regular expressions apply to tags, not to 'file'")
        #expect(message("(title =~ '(')")?.hasPrefix("Invalid regular expression: missing closing parenthesis") == true)
        #expect(message("(title ~= 'a')") == "unsupported filter operator: ~=")
    }
}
