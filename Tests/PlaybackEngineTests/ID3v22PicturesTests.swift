import Foundation
import PlaybackEngine
import Testing

/// Our own parser of ID3v2.2 `PIC` frames, on the raw bytes its fuzz target starts from.
@Suite struct ID3v22PicturesTests {
    private static let seeds = Fixtures.root + "/Tests/Fuzz/id3v22-pictures/"

    private func cover(_ bytes: [UInt8]) -> EmbeddedPicture? {
        bytes.withUnsafeBufferPointer { ID3v22Pictures.cover(rawTag: $0) }
    }

    @Test("the front cover wins over a picture before it; a UTF-16 description ends at two zero bytes")
    func frontCoverWins() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "frames-two-pics")))
        let picture = try #require(cover(bytes))
        #expect(picture.mimeType == "image/jpeg")
        #expect(picture.data == [0xFF, 0xD8, 0xFF, 0xE0] + Array("front".utf8))
    }

    @Test("a whole v2.2 tag: its header is skipped and its picture read")
    func wholeTag() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "tag-with-pic")))
        #expect(cover(bytes)?.data.isEmpty == false)
        // The same tag claiming version 3, or unsynchronised, is not ours to read.
        var version3 = bytes
        version3[3] = 3
        #expect(cover(version3) == nil)
        var unsynchronised = bytes
        unsynchronised[5] |= 0x80
        #expect(cover(unsynchronised) == nil)
    }

    @Test("a frame that claims more than there is, or a body too short, gives no picture")
    func truncated() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.seeds + "frames-two-pics")))
        for length in [0, 5, 6, 20, 40] { #expect(cover(Array(bytes.prefix(length))) == nil, "\(length) bytes") }
        #expect(cover(Array("PIC".utf8) + [0, 0, 3, 0, 0x50, 0x4E]) == nil, "a body of three bytes")
    }
}
