import CSystemShim
import Foundation
import Testing

/// `playbackd_release_clean_file_pages`, in this test process with its threads running: the
/// read-only pages of the loaded files leave the resident set, the process's own copies (data,
/// RELRO, the heap) stay, and everything still runs.
@Suite struct ResidentCodeTests {
    private struct SmapsUnreadable: Error {}

    /// Resident KiB of this process's file mappings, read-only ones and writable or written
    /// (`Anonymous`: a private page the process wrote, a copy of its own) apart.
    private static func fileMappings() throws -> (readOnly: Int, ownCopies: Int) {
        // Read to its end: `String(contentsOfFile:)` stops at a /proc file's first read (3.8 KB).
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps") else {
            throw SmapsUnreadable()
        }
        defer { try? file.close() }
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        var readOnly = 0
        var ownCopies = 0
        var isFile = false
        var isWritable = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5, first.first?.isHexDigit == true {
                isFile = fields.count >= 6 && fields[5].hasPrefix("/") && fields[4] != "0"
                isWritable = fields[1].contains("w")
            } else if isFile, fields.count >= 2, let kib = Int(fields[1]) {
                if fields[0] == "Rss:", !isWritable { readOnly += kib }
                if fields[0] == "Anonymous:" { ownCopies += kib }
            }
        }
        return (readOnly, ownCopies)
    }

    @Test("the read-only pages of every loaded file leave the resident set; the process's own copies stay")
    func releasesReadOnlyPagesOnly() throws {
        let before = try Self.fileMappings()
        let heap = (0..<1_000).map { "item \($0)" }
        let released = playbackd_release_clean_file_pages()
        let after = try Self.fileMappings()
        #expect(released > 1 << 20, "\(released) bytes of ranges unmapped")
        #expect(
            after.readOnly < before.readOnly / 2,
            "read-only file pages resident: \(before.readOnly) KiB before, \(after.readOnly) after")
        // A written page of a file's mapping (data, relocated pointers) is never dropped: that
        // would bring back the file's bytes.
        #expect(after.ownCopies >= before.ownCopies, "own copies: \(before.ownCopies) KiB, then \(after.ownCopies)")
        // What was computed, and code and metadata mapped again on use, still work.
        #expect(heap[999] == "item 999")
        #expect(String(describing: Array(heap.suffix(1))) == #"["item 999"]"#)
        #expect(
            (try? JSONSerialization.data(withJSONObject: ["a": 1])).map { String(decoding: $0, as: UTF8.self) }
                == #"{"a":1}"#)
    }
}
