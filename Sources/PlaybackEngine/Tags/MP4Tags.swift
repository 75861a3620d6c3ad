import PlaybackModel

/// The iTunes tags of an MP4 (`moov/udta/meta/ilst`), under the keys libavformat gives them
/// (`TagSource.ffmpegKey`: `©nam` is `title`, `aART` `album_artist`, `trkn` `track` as `N/M`,
/// a freeform `----:com.apple.iTunes:NAME` its lowercased name), and the cover (`covr`).
struct MP4Tags: FFmpegKeyedTags {
    /// Each text by its key; the first value of an atom wins.
    private(set) var texts: [String: String] = [:]
    /// The first `covr` image.
    private(set) var cover: EmbeddedPicture?
    /// The file's chapters (`MP4Chapters`).
    var chapters: [(start: Double, title: String?)] = []

    /// The keys of the text atoms, by their four bytes (`©` is 0xA9).
    private static let keys: [[UInt8]: String] = [
        [0xA9] + Array("nam".utf8): "title", [0xA9] + Array("ART".utf8): "artist",
        [0xA9] + Array("alb".utf8): "album", Array("aART".utf8): "album_artist",
        [0xA9] + Array("wrt".utf8): "composer", [0xA9] + Array("gen".utf8): "genre",
        [0xA9] + Array("day".utf8): "date",
    ]

    /// The tags under `userData` (`moov/udta`) of `moov`; none without it.
    init(_ moov: MP4Bytes, userData: MP4Box?) {
        guard let userData, let meta = moov.first(MP4BoxType("meta"), in: userData.body) else { return }
        // MP4's `meta` is a full box (4 bytes of version and flags first); QuickTime's is not.
        let fullBox = moov.u32(meta.body.lowerBound + 8) == Int(MP4BoxType("hdlr").code)
        let children = meta.body(after: fullBox ? 4 : 0)
        guard let list = moov.first(MP4BoxType("ilst"), in: children) else { return }
        for atom in moov.boxes(in: list.body) {
            let name = Array(moov[atom.body.lowerBound - 4..<atom.body.lowerBound])
            let parts = moov.boxes(in: atom.body)
            guard let data = parts.first(where: { $0.type == MP4BoxType("data") }), data.body.count >= 8,
                let kind = moov.u32(data.body.lowerBound)
            else { continue }
            let value = moov[data.body(after: 8)]
            switch atom.type {
            case MP4BoxType("trkn"): keep(Self.numberAndCount(value), as: "track")
            case MP4BoxType("disk"): keep(Self.numberAndCount(value), as: "disc")
            case MP4BoxType("gnre"):
                if value.count >= 2 {
                    keep(
                        ID3Genres.name(Int(value[value.startIndex]) << 8 + Int(value[value.startIndex + 1]) - 1),
                        as: "genre")
                }
            case MP4BoxType("covr"):
                if cover == nil, kind & 0xFF == 13 || kind & 0xFF == 14 {
                    cover = EmbeddedPicture(
                        mimeType: kind & 0xFF == 13 ? "image/jpeg" : "image/png", data: Array(value))
                }
            case MP4BoxType("----"):
                guard let freeName = parts.first(where: { $0.type == MP4BoxType("name") }), freeName.body.count > 4
                else {
                    continue
                }
                let key = String(decoding: moov[freeName.body(after: 4)], as: UTF8.self)
                keep(String(decoding: value, as: UTF8.self), as: key.lowercased())
            default:
                if kind & 0xFF == 1, let key = Self.keys[name] { keep(String(decoding: value, as: UTF8.self), as: key) }
            }
        }
    }

    private mutating func keep(_ text: String?, as key: String) {
        guard let text, !text.isEmpty, texts[key] == nil else { return }
        texts[key] = text
    }

    /// `trkn`'s and `disk`'s binary value (2 bytes, the number, the count) as `N/M`.
    private static func numberAndCount(_ value: ArraySlice<UInt8>) -> String? {
        let bytes = Array(value)
        guard bytes.count >= 6 else { return nil }
        let number = Int(bytes[2]) << 8 | Int(bytes[3])
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        guard number > 0 else { return nil }
        return count > 0 ? "\(number)/\(count)" : "\(number)"
    }

    func text(_ key: String) -> String? { texts[key] }
}
