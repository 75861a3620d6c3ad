#if canImport(Glibc)
    import Glibc
#endif

/// What playing an MP4 file (`.m4a`, `.m4b`) takes from its `moov` box: its first audio track,
/// its iTunes tags and its chapters. Read by hand because no library on Debian 12 reads MP4
/// but libavformat, which with the libavcodec it links loads 114 libraries and 28 MiB
/// (measured playing an M4A: docs/performance.md); libfaad decodes the frames found here.
struct MP4Movie {
    /// The whole `moov` box: the sample tables are read from it as playback goes.
    let moov: MP4Bytes
    /// The first audio track.
    let audio: MP4Track
    /// The iTunes tags, with the chapters: Nero's (`udta/chpl`), else a QuickTime chapter
    /// track's texts.
    let tags: MP4Tags

    /// The most a `moov` may take: a 20-hour audiobook's is about 15 MB.
    static let largestMovieBox = 256 << 20

    /// Reads the `moov` of the file `input` has open, wherever it lies among the top-level
    /// boxes. Throws `.notAudio` with the reason for a file without one, or without an audio
    /// track whose tables hold together.
    init(_ input: DecoderInput) throws(DecoderError) {
        let moov = MP4Bytes(bytes: try Self.movieBox(input))
        let whole = 0..<moov.bytes.count
        let tracks = moov.boxes(in: whole).filter { $0.type == MP4BoxType("trak") }
        guard let audio = tracks.lazy.compactMap({ MP4Track(moov, trak: $0) }).first else {
            throw input.readFailure ?? .notAudio("no audio track in the MP4")
        }
        self.moov = moov
        self.audio = audio
        let userData = moov.first(MP4BoxType("udta"), in: whole)
        var tags = MP4Tags(moov, userData: userData)
        let nero = userData.map { MP4Chapters.nero(moov, userData: $0) } ?? []
        tags.chapters =
            nero.isEmpty ? MP4Chapters.track(moov, tracks: tracks, named: audio.chapterTrackID, input: input) : nero
        self.tags = tags
    }

    /// The bytes of the top-level `moov` box.
    private static func movieBox(_ input: DecoderInput) throws(DecoderError) -> [UInt8] {
        var at = 0
        var header = [UInt8](repeating: 0, count: 16)
        while true {
            _ = input.seek(to: off_t(at), whence: SEEK_SET)
            let got = header.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: 16) }
            let bytes = MP4Bytes(bytes: Array(header.prefix(max(0, got))))
            guard got >= 8, let size32 = bytes.u32(0), let type = bytes.u32(4) else {
                throw input.readFailure ?? .notAudio("no moov box in the MP4")
            }
            var size = size32
            var headerSize = 8
            if size32 == 1 {
                guard let size64 = bytes.u64(8) else { throw .notAudio("a box's size is cut short") }
                size = size64
                headerSize = 16
            } else if size32 == 0, let fileSize = input.size {
                size = fileSize - at
            }
            guard size >= headerSize else { throw .notAudio("a box of \(size) bytes") }
            if MP4BoxType(code: UInt32(type)) == MP4BoxType("moov") {
                // One that claims more than the file holds is read to the file's end, as
                // libavformat reads it: its boxes end before.
                let length = min(size, (input.size ?? Int.max) - at) - headerSize
                guard length > 0, length <= largestMovieBox else {
                    throw .notAudio("the moov box claims \(size) bytes")
                }
                var body = [UInt8](repeating: 0, count: length)
                _ = input.seek(to: off_t(at + headerSize), whence: SEEK_SET)
                let read = body.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: length) }
                guard read == length else { throw input.readFailure ?? .notAudio("the moov box is cut short") }
                return body
            }
            // A box that runs past the end (or past any offset) before a moov: there is none.
            let (next, overflow) = at.addingReportingOverflow(size)
            guard !overflow, next < input.size ?? Int.max else { throw .notAudio("no moov box in the MP4") }
            at = next
        }
    }
}

/// An MP4 track: its samples, and for an audio track its codec and configuration and the part
/// of it that plays (the edit list: the encoder's delay before, its padding after).
struct MP4Track {
    /// The sample entry's type: `mp4a` (AAC), `alac`, ...
    let codec: MP4BoxType
    /// `esds`'s object type (0x40: MPEG-4 audio, AAC), 0 without one.
    let objectType: Int
    /// The decoder's configuration: `esds`'s AudioSpecificConfig.
    let decoderConfiguration: [UInt8]
    let channels: Int
    /// The media's timescale (`mdhd`): samples' times and the edit's start are in it.
    let timescale: Int
    let samples: MP4SampleTable
    /// Where playback starts and how long it goes on, in `timescale`; nil without an edit list
    /// (then all of it).
    let edit: (start: Int, duration: Int?)?
    /// The track's id (`tkhd`), as a chapter reference names it.
    let id: Int
    /// The id of the text track that holds a sound track's chapters (`tref/chap`), if any.
    let chapterTrackID: Int?

    /// The track `trak` of `moov` if its handler is `handler` (`soun`, or `text` for chapters)
    /// and it has a sample table; else nil. Only a sound track has a codec and an edit.
    init?(_ moov: MP4Bytes, trak: MP4Box, handler: MP4BoxType = MP4BoxType("soun")) {
        guard let media = moov.first(MP4BoxType("mdia"), in: trak.body),
            let handlerBox = moov.first(MP4BoxType("hdlr"), in: media.body),
            let header = moov.first(MP4BoxType("mdhd"), in: media.body),
            let table = moov.find([MP4BoxType("minf"), MP4BoxType("stbl")], in: media.body),
            let samples = MP4SampleTable(moov, table: table),
            let trackHeader = moov.first(MP4BoxType("tkhd"), in: trak.body)
        else { return nil }
        let handlerType = moov.u32(handlerBox.body.lowerBound + 8).map { MP4BoxType(code: UInt32($0)) }
        guard handlerType == handler else { return nil }
        let version = moov.u8(header.body.lowerBound) ?? 0
        // A timescale above 2^24 (16.7 MHz, where audio's is its rate, or 1,000 or 600) is a
        // lie, and times scaled by it must not overflow.
        guard let timescale = moov.u32(header.body.lowerBound + (version == 1 ? 20 : 12)),
            (1...1 << 24).contains(timescale),
            let id = moov.u32(
                trackHeader.body.lowerBound + ((moov.u8(trackHeader.body.lowerBound) ?? 0) == 1 ? 20 : 12))
        else { return nil }
        self.timescale = timescale
        self.samples = samples
        self.id = id
        guard handler == MP4BoxType("soun") else {
            codec = handler
            objectType = 0
            decoderConfiguration = []
            channels = 0
            edit = nil
            chapterTrackID = nil
            return
        }
        guard let description = moov.first(MP4BoxType("stsd"), in: table.body),
            let entry = moov.boxes(in: description.body(after: 8)).first,
            let channels = moov.u16(entry.body.lowerBound + 16), let entryVersion = moov.u16(entry.body.lowerBound + 8)
        else { return nil }
        codec = entry.type
        self.channels = channels
        chapterTrackID = moov.find([MP4BoxType("tref"), MP4BoxType("chap")], in: trak.body).flatMap {
            moov.u32($0.body.lowerBound)
        }
        // The audio sample entry's children follow its 28 bytes (QuickTime's version 1 adds
        // 16, version 2 36); an `esds` may be inside a QuickTime `wave`.
        let children =
            entry.body(after: 28 + (entryVersion == 1 ? 16 : entryVersion == 2 ? 36 : 0))
        let esds =
            moov.first(MP4BoxType("esds"), in: children)
            ?? moov.find([MP4BoxType("wave"), MP4BoxType("esds")], in: children)
        let configuration = esds.flatMap { MP4ElementaryStream(moov, esds: $0) }
        objectType = configuration?.objectType ?? 0
        decoderConfiguration = configuration?.decoderSpecificInfo ?? []
        edit = Self.edit(moov, trak: trak, timescale: timescale).flatMap { edit in
            // An edit past the media is a lie: all of it plays.
            edit.start <= samples.duration ? (edit.start, edit.duration.map { min($0, samples.duration) }) : nil
        }
    }

    /// The first edit that plays media (`elst`): its media time, and its duration from the
    /// movie's timescale (`mvhd`) in the media's.
    private static func edit(_ moov: MP4Bytes, trak: MP4Box, timescale: Int) -> (start: Int, duration: Int?)? {
        guard let list = moov.find([MP4BoxType("edts"), MP4BoxType("elst")], in: trak.body),
            let movieHeader = moov.first(MP4BoxType("mvhd"), in: 0..<moov.bytes.count)
        else { return nil }
        let movieVersion = moov.u8(movieHeader.body.lowerBound) ?? 0
        guard let movieScale = moov.u32(movieHeader.body.lowerBound + (movieVersion == 1 ? 20 : 12)), movieScale > 0,
            let count = moov.u32(list.body.lowerBound + 4)
        else { return nil }
        let version = moov.u8(list.body.lowerBound) ?? 0
        let width = version == 1 ? 8 : 4
        for index in 0..<min(count, 64) {
            let at = list.body.lowerBound + 8 + index * (2 * width + 4)
            // A negative media time (-1): an empty edit, a delay before the media.
            guard let sign = moov.u8(at + width) else { return nil }
            if sign & 0x80 != 0 { continue }
            guard let duration = width == 8 ? moov.u64(at) : moov.u32(at),
                let time = width == 8 ? moov.u64(at + 8) : moov.u32(at + 4)
            else { return nil }
            let (scaled, overflow) = duration.multipliedReportingOverflow(by: timescale)
            return (time, duration == 0 || overflow ? nil : scaled / movieScale)
        }
        return nil
    }
}

/// An `esds` box's ES descriptor (ISO/IEC 14496-1 §7.2.6.5): the object type of its decoder
/// configuration and the decoder-specific info (AAC's AudioSpecificConfig).
struct MP4ElementaryStream {
    var objectType = 0
    var decoderSpecificInfo: [UInt8] = []

    init?(_ moov: MP4Bytes, esds: MP4Box) {
        var at = esds.body.lowerBound + 4
        let end = esds.body.upperBound
        while at < end, let tag = moov.u8(at) {
            // A descriptor's length: up to four bytes of 7 bits, each but the last with its top bit set.
            var length = 0
            var next = at + 1
            for _ in 0..<4 {
                guard let byte = moov.u8(next) else { return nil }
                length = length << 7 | (byte & 0x7F)
                next += 1
                if byte & 0x80 == 0 { break }
            }
            switch tag {
            case 0x03:  // ES_Descriptor: its id, flags, and what they add; then its children.
                guard let flags = moov.u8(next + 2) else { return nil }
                next += 3
                if flags & 0x80 != 0 { next += 2 }
                if flags & 0x40 != 0 { next += 1 + (moov.u8(next) ?? 0) }
                if flags & 0x20 != 0 { next += 2 }
                at = next
            case 0x04:  // DecoderConfigDescriptor: 13 bytes, then its decoder-specific info.
                guard let type = moov.u8(next) else { return nil }
                objectType = type
                at = next + 13
            case 0x05:
                guard next + length <= end else { return nil }
                decoderSpecificInfo = Array(moov[next..<next + length])
                return
            default:
                at = next + length
            }
        }
        if objectType == 0 { return nil }
    }
}
