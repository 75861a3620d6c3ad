#if canImport(Glibc)
    import Glibc
#endif

/// An MP4's chapters, as the two kinds of file carry them: Nero's `chpl` box (FFmpeg and
/// mp4v2 write it), and a QuickTime chapter track (Apple's M4B audiobooks): a text track the
/// audio track's `tref/chap` names, each sample a chapter's title, its time the chapter's start.
enum MP4Chapters {
    /// The most chapters read, as `Chapter.normalized` keeps.
    static let limit = 10_000

    /// `udta/chpl`: a version byte, 3 bytes of flags (4 more bytes in version 1), a count byte,
    /// then each chapter's start (100 ns units, 64 bits) and title (a length byte, UTF-8).
    static func nero(_ moov: MP4Bytes, userData: MP4Box) -> [(start: Double, title: String?)] {
        guard let list = moov.first(MP4BoxType("chpl"), in: userData.body), let version = moov.u8(list.body.lowerBound)
        else { return [] }
        var at = list.body.lowerBound + (version == 1 ? 8 : 4)
        guard let count = moov.u8(at) else { return [] }
        at += 1
        var chapters: [(start: Double, title: String?)] = []
        for _ in 0..<count {
            guard let start = moov.u64(at), let length = moov.u8(at + 8), at + 9 + length <= list.body.upperBound else {
                break
            }
            let title = String(decoding: moov[at + 9..<at + 9 + length], as: UTF8.self)
            chapters.append((Double(start) / 10_000_000, title.isEmpty ? nil : title))
            at += 9 + length
        }
        return chapters
    }

    /// The texts of the text track among `tracks` whose id is `chapterTrackID` (as the audio
    /// track's `tref/chap` names it), read from the file: each sample a 16-bit length and the
    /// title (UTF-8, or UTF-16 after its byte-order mark).
    static func track(_ moov: MP4Bytes, tracks: [MP4Box], named chapterTrackID: Int?, input: DecoderInput)
        -> [(start: Double, title: String?)]
    {
        guard let chapterTrackID,
            let text = tracks.lazy.compactMap({ MP4Track(moov, trak: $0, handler: MP4BoxType("text")) }).first(where: {
                $0.id == chapterTrackID
            })
        else { return [] }
        var cursor = MP4SampleCursor(text.samples)
        var chapters: [(start: Double, title: String?)] = []
        var buffer = [UInt8](repeating: 0, count: 1_024)
        while chapters.count < limit, let sample = cursor.next() {
            let start = Double(sample.start) / Double(text.timescale)
            let count = min(sample.size, buffer.count)
            _ = input.seek(to: off_t(sample.offset), whence: SEEK_SET)
            let got = buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: count) }
            guard got >= 2 else { break }
            let length = min(Int(buffer[0]) << 8 | Int(buffer[1]), got - 2)
            chapters.append((start, title(buffer[2..<2 + length])))
        }
        return chapters
    }

    private static func title(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let big = bytes.first == 0xFE
            let units = stride(from: bytes.startIndex + 2, to: bytes.endIndex - 1, by: 2).map { at -> UInt16 in
                let first = UInt16(bytes[at])
                let second = UInt16(bytes[at + 1])
                return big ? first << 8 | second : second << 8 | first
            }
            let text = String(decoding: units, as: UTF16.self)
            return text.isEmpty ? nil : text
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
