import PlaybackModel
import SystemSupport

/// The audio formats playbackd plays, each declared once: the decoder that opens it, how its
/// first bytes look, its file name extensions (which only break ties, as MPD's decoder plugins
/// use them), and its MIME types. Enqueueing a directory, MPRIS's `SupportedMimeTypes` and the
/// choice of a decoder for a file all follow from `all`.
public struct AudioFileFormat: Sendable {
    /// What the format is called in docs and errors.
    public let name: String
    public let extensions: Set<String>
    public let mimeTypes: [String]
    /// Whether the file's first `headSize` bytes (after any ID3v2 tag) are this format's.
    let recognizes: @Sendable (_ head: ArraySlice<UInt8>) -> Bool
    /// Opens the file a `DecoderInput` has open, named by a path, keeping its pictures or not.
    let decoder: @Sendable (DecoderInput, String, Bool) throws(DecoderError) -> any AudioDecoder

    init(
        name: String, extensions: Set<String>, mimeTypes: [String],
        recognizes: @escaping @Sendable (ArraySlice<UInt8>) -> Bool,
        decoder: @escaping @Sendable (DecoderInput, String, Bool) throws(DecoderError) -> any AudioDecoder
    ) {
        self.name = name
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.recognizes = recognizes
        self.decoder = decoder
    }

    init(
        name: String, extensions: Set<String>, mimeTypes: [String],
        recognizes: @escaping @Sendable (ArraySlice<UInt8>) -> Bool, decoder type: any FileDecoder.Type
    ) {
        self.init(name: name, extensions: extensions, mimeTypes: mimeTypes, recognizes: recognizes) {
            input, path, pictures throws(DecoderError) in try type.init(input, path: path, readsPictures: pictures)
        }
    }

    /// How many bytes of a file are read to recognize its format.
    static let headSize = 64

    /// Every format, the most specific recognizer first; MPEG audio last, as libmpg123 also
    /// finds its frames past leading junk.
    public static let all: [AudioFileFormat] = [flac, vorbis, opus, mp4, wave, aiff, mpeg]

    static let flac = AudioFileFormat(
        name: "FLAC", extensions: ["flac"], mimeTypes: ["audio/flac", "audio/x-flac"],
        recognizes: { isNativeFLAC(Array($0)) || isOggFLAC(Array($0)) },
        decoder: FLACDecoder.self)

    static let vorbis = AudioFileFormat(
        name: "Ogg Vorbis", extensions: ["ogg", "oga"], mimeTypes: ["audio/ogg", "audio/vorbis", "audio/x-vorbis+ogg"],
        recognizes: { oggFirstPacket($0)?.starts(with: [1] + Array("vorbis".utf8)) == true },
        decoder: VorbisDecoder.self)

    static let opus = AudioFileFormat(
        name: "Opus", extensions: ["opus"], mimeTypes: ["audio/opus", "audio/x-opus+ogg"],
        recognizes: { oggFirstPacket($0)?.starts(with: Array("OpusHead".utf8)) == true },
        decoder: OpusDecoder.self)

    static let mp4 = AudioFileFormat(
        name: "AAC or ALAC in MP4", extensions: ["m4a", "m4b", "mp4"],
        mimeTypes: ["audio/mp4", "audio/x-m4a", "audio/x-m4b"],
        recognizes: { chunk($0, at: 4, is: "ftyp") }, decoder: MP4Decoding.open)

    static let wave = AudioFileFormat(
        name: "WAV", extensions: ["wav"], mimeTypes: ["audio/wav", "audio/x-wav"],
        recognizes: { (chunk($0, at: 0, is: "RIFF") || chunk($0, at: 0, is: "RF64")) && chunk($0, at: 8, is: "WAVE") },
        decoder: FFmpegDecoder.self)

    static let aiff = AudioFileFormat(
        name: "AIFF", extensions: ["aif", "aiff", "aifc"], mimeTypes: ["audio/aiff", "audio/x-aiff"],
        recognizes: { chunk($0, at: 0, is: "FORM") && (chunk($0, at: 8, is: "AIFF") || chunk($0, at: 8, is: "AIFC")) },
        decoder: FFmpegDecoder.self)

    static let mpeg = AudioFileFormat(
        name: "MP3", extensions: ["mp3", "mp2", "mp1", "mpga"],
        mimeTypes: ["audio/mpeg", "audio/mp3", "audio/x-mp3", "audio/x-mpeg"],
        recognizes: { head in
            // A frame sync: 11 set bits, then a layer other than the reserved 00.
            head.count >= 2 && head[head.startIndex] == 0xFF && head[head.startIndex + 1] & 0xE6 > 0xE0
        },
        decoder: MPG123Decoder.self)

    /// Every extension of every format, for picking audio files out of a directory.
    public static let allExtensions: Set<String> = all.reduce(into: []) { $0.formUnion($1.extensions) }

    /// Opens `path` with the decoder of the format its content shows; where the content shows
    /// none, the format its extension names; else as MPEG audio (whose decoder says why not).
    /// An `http://` or `https://` URL is fetched (`HTTPSource`, with `http`'s options), its
    /// response's MIME type counting as its extension.
    public static func open(
        _ path: String, readsPictures: Bool = false, http: HTTPOptions = HTTPOptions()
    ) throws(DecoderError) -> any AudioDecoder {
        try open(DecoderRequest(path: path), readsPictures: readsPictures, http: http)
    }

    /// Opens what `request` names. A stream whose format it knows is connected by the decoder
    /// thread, at its first read (`DeferredStreamDecoder`): the event loop that opens the
    /// current item must never wait on a server.
    public static func open(
        _ request: DecoderRequest, readsPictures: Bool = false, http: HTTPOptions = HTTPOptions()
    ) throws(DecoderError) -> any AudioDecoder {
        let path = request.path
        if StreamURL.isStream(path) {
            var http = http
            http.onTitle = request.onTitle
            if let known = request.known {
                return DeferredStreamDecoder(url: path, format: known.format, frames: known.frames) {
                    [http] () throws(DecoderError) in try openStream(path, readsPictures: readsPictures, http: http)
                }
            }
            return try openStream(path, readsPictures: readsPictures, http: http)
        }
        let input = try DecoderInput.open(path)
        let named = all.first { $0.extensions.contains(FileName.extension(path)) }
        return try format(of: input, named: named).decoder(input, path, readsPictures)
    }

    /// Connects to `url` and opens the decoder of the format its first bytes show, else its
    /// MIME type, else its extension.
    private static func openStream(_ url: String, readsPictures: Bool, http: HTTPOptions) throws(DecoderError)
        -> any AudioDecoder
    {
        let source = try HTTPSource(url: url, options: http)
        let input = DecoderInput(source)
        let typed = source.response.contentType.flatMap { type in
            all.first { $0.mimeTypes.contains(String(type.split(separator: ";")[0])) }
        }
        let named = typed ?? all.first { $0.extensions.contains(StreamURL.extension(url)) }
        let decoder = StreamDecoder(
            try format(of: input, named: named).decoder(input, url, readsPictures),
            url: url, source: source)
        return decoder
    }

    /// The format `input`'s first bytes show, else `named`, else MPEG audio.
    private static func format(of input: DecoderInput, named: AudioFileFormat?) -> AudioFileFormat {
        let content = afterID3v2(input.head(headSize))
        return all.first { $0.recognizes(content) } ?? named ?? mpeg
    }

    /// `fLaC` at the start, or after an ID3v2 tag (some taggers put one there).
    static func isNativeFLAC(_ head: [UInt8]) -> Bool { afterID3v2(head).starts(with: Array("fLaC".utf8)) }

    /// An Ogg page whose first packet is FLAC's mapping header (0x7F `FLAC`).
    static func isOggFLAC(_ head: [UInt8]) -> Bool {
        oggFirstPacket(head[...])?.starts(with: [0x7F] + Array("FLAC".utf8)) == true
    }

    /// Whether the four bytes at `offset` of `head` are `name` (a RIFF, IFF or MP4 chunk's name).
    private static func chunk(_ head: ArraySlice<UInt8>, at offset: Int, is name: String) -> Bool {
        head.count >= offset + 4 && head.dropFirst(offset).prefix(4).elementsEqual(name.utf8)
    }

    /// The start of the first packet of an Ogg stream (its codec's identification header): after
    /// the first page's 27-byte header and its segment table.
    private static func oggFirstPacket(_ head: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let start = head.startIndex
        guard head.starts(with: Array("OggS".utf8)), head.count > 27 else { return nil }
        let packet = start + 27 + Int(head[start + 26])
        return packet < head.endIndex ? head[packet...] : nil
    }

    /// The bytes after an ID3v2 tag at the start, when its end is within `head`; else `head`.
    /// Only enough to recognize what follows: the tag's size is its 4 syncsafe bytes plus 10.
    private static func afterID3v2(_ head: [UInt8]) -> ArraySlice<UInt8> {
        guard head.count >= 10, head.starts(with: Array("ID3".utf8)) else { return head[...] }
        let size = head[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10
        return size < head.count ? head[size...] : head[head.count...]
    }
}
