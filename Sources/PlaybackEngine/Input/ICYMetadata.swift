/// What a live stream says it plays: ICY's `StreamTitle`, which stations write as
/// `Artist - Title` (split there; all of it is the title when there is no ` - `).
public struct StreamTitle: Sendable, Equatable {
    public var artist: String?
    public var title: String

    public init(artist: String?, title: String) {
        self.artist = artist
        self.title = title
    }

    /// `text` as stations write it.
    public init(_ text: String) {
        let bytes = Array(text.utf8)
        guard let dash = bytes.firstIndex(ofBytes: Array(" - ".utf8)) else {
            self.init(artist: nil, title: text)
            return
        }
        self.init(
            artist: String(decoding: bytes[..<dash], as: UTF8.self),
            title: String(decoding: bytes[(dash + 3)...], as: UTF8.self))
    }
}

/// Shoutcast/Icecast in-band metadata: with `Icy-MetaData: 1` asked and `icy-metaint: N`
/// answered, the body is N bytes of audio, one length byte L, L × 16 bytes of text such as
/// `StreamTitle='Artist - Title';StreamUrl='';` (zero-padded), then N bytes of audio again.
///
/// `ICYDemuxer` takes the body as it arrives, in pieces of any size, and parts the audio from
/// the titles. One per connection: the count starts again with every response.
public struct ICYDemuxer {
    /// Audio bytes between two metadata blocks (`icy-metaint`).
    let interval: Int
    /// Audio bytes still to come before the next length byte.
    private var audioLeft: Int
    /// Bytes of the metadata block still to come; nil while audio is read.
    private var metadataLeft: Int?
    private var metadata: [UInt8] = []

    public init(interval: Int) {
        self.interval = interval
        audioLeft = interval
    }

    /// Parts `bytes`: each run of audio goes to `audio` in order (which returns false to stop:
    /// then so does this, returning false), and each complete metadata block's `StreamTitle` to
    /// `title`.
    public mutating func split(
        _ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Bool, title: (String) -> Void
    ) -> Bool {
        var index = 0
        while index < bytes.count {
            if let left = metadataLeft {
                let take = min(left, bytes.count - index)
                metadata += bytes[index..<(index + take)]
                index += take
                metadataLeft = left - take
                if metadataLeft == 0 {
                    if let found = Self.streamTitle(in: metadata) { title(found) }
                    metadata.removeAll(keepingCapacity: true)
                    metadataLeft = nil
                    audioLeft = interval
                }
            } else if audioLeft == 0 {
                let length = Int(bytes[index]) * 16
                index += 1
                if length == 0 {
                    audioLeft = interval
                } else {
                    metadataLeft = length
                }
            } else {
                let take = min(audioLeft, bytes.count - index)
                guard audio(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)])) else { return false }
                index += take
                audioLeft -= take
            }
        }
        return true
    }

    /// The value of `StreamTitle='…';` in a metadata block: up to the `';` that ends it (a title
    /// may hold an apostrophe), as UTF-8, or as Latin-1 where it is not valid UTF-8 (old
    /// Shoutcast servers). Nil when the block has no StreamTitle.
    public static func streamTitle(in block: [UInt8]) -> String? {
        let key = Array("StreamTitle='".utf8)
        guard let found = block.firstIndex(ofBytes: key) else { return nil }
        let rest = block[(found + key.count)...].prefix { $0 != 0 }
        let end =
            rest.firstIndex(ofBytes: Array("';".utf8))
            ?? (rest.last == UInt8(ascii: "'") ? rest.endIndex - 1 : rest.endIndex)
        let value = Array(rest[rest.startIndex..<end])
        if let text = String(validating: value, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) }))
    }
}
