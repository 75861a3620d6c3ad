import PlaybackModel
import Testing

@testable import ControlProtocol

/// A query's wire form: what `libraryQuery` reads, and what `playbackctl` writes back.
@Suite struct LibraryQueryJSONTests {
    private func query(_ text: String) throws -> LibraryQuery {
        let members = try #require(try JSONParser.parse(Array(text.utf8)).objectMembers)
        return try LibraryQuery(members: Dictionary(members, uniquingKeysWith: { first, _ in first }))
    }

    @Test("a filter with not, and groups to exclude, read and written back the same")
    func negationsRoundTrip() throws {
        let read = try query(
            #"{"filters":[{"field":"artist","value":"Queen"},{"field":"title","op":"contains","value":"live","not":true}],"exclude":[{"filters":[{"field":"album","value":"A"},{"field":"year","op":"atLeast","value":1990}]}]}"#
        )
        let (title, album, year) = (
            try #require(LibraryField.named("title")), try #require(LibraryField.named("album")),
            try #require(LibraryField.named("year"))
        )
        #expect(read.filters.last == LibraryQuery.Filter(title, .contains, "live", negated: true))
        #expect(read.exclusions == [[.init(album, .equalTo, "A"), .init(year, .atLeast, "1990")]])
        let written = JSONValue.object(read.members).serialized
        #expect(try query(written) == read)
    }

    @Test("a bad not or exclude is refused by name")
    func refusals() {
        func message(_ text: String) -> String? {
            do {
                _ = try query(text)
                return nil
            } catch let error as RequestError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message(#"{"filters":[{"field":"title","value":"x","not":"yes"}]}"#)
                == "the filter on 'title': 'not' must be a boolean")
        #expect(
            message(#"{"exclude":[{"filters":[]}]}"#)
                == "each of 'exclude' must be an object with a non-empty 'filters' array")
        #expect(message(#"{"exclude":{"filters":[]}}"#) == "'exclude' must be an array of objects")
    }
}
