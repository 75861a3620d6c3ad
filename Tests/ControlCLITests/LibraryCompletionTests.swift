import Testing

@testable import ControlCLI

@Suite struct LibraryCompletionTests {
    @Test("a name may begin as typed: letters whatever their case, a letter that is not ASCII as any")
    func prefixes() {
        #expect(LibraryCompletion.mayStart("Beyoncé", with: "beyonce"))
        #expect(LibraryCompletion.mayStart("Sigur Rós", with: "SIGUR R"))
        #expect(LibraryCompletion.mayStart("Anything", with: ""))
        #expect(!LibraryCompletion.mayStart("Rock", with: "r&"))
        #expect(!LibraryCompletion.mayStart("Jay-Z", with: "beyo"), "a song's other artist")
        #expect(!LibraryCompletion.mayStart("ABBA", with: "abbaz"), "longer than the name")
    }

    @Test("without '=' the fields complete; a field without names, or no daemon, completes nothing")
    func fieldsAndNothing() {
        #expect(LibraryCompletion.candidates("al", path: "/nonexistent/socket") == ["albumArtist=", "album="])
        #expect(LibraryCompletion.candidates("", path: "/nonexistent/socket").count == LibraryCompletion.entities.count)
        #expect(LibraryCompletion.candidates("title=x", path: "/nonexistent/socket") == [])
        #expect(LibraryCompletion.candidates("artist=x", path: "/nonexistent/socket") == [])
        #expect(LibraryCompletion.query(field: "year", prefix: "19") == nil)
        #expect(LibraryCompletion.query(field: "genre", prefix: "")?.filters.isEmpty == true)
    }
}
