import PlaybackModel

/// Why a file cannot be decoded. Each case maps to `noSuchContent` at the server edge.
public enum DecoderError: Error, Equatable, CustomStringConvertible {
    case fileNotFound
    case permissionDenied
    case notAFile
    case notMPEGAudio(String)
    case notFLAC(String)
    case notOggVorbis(String)
    case notOpus(String)
    /// A container FFmpeg reads (MP4, WAV, AIFF) without audio it can play.
    case notAudio(String)
    /// A file of a known format whose content playbackd does not play yet.
    case unsupported(String)
    case decodingFailed(String)
    /// The file could not be read (an I/O error): `strerror`'s text.
    case readFailed(String)

    public var description: String {
        switch self {
        case .fileNotFound: "no such file"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .notMPEGAudio(let why): "not an MPEG audio file (\(why))"
        case .notFLAC(let why): "not a FLAC file (\(why))"
        case .notOggVorbis(let why): "not an Ogg Vorbis file (\(why))"
        case .notOpus(let why): "not an Opus file (\(why))"
        case .notAudio(let why): "not a playable audio file (\(why))"
        case .unsupported(let why): "not supported: \(why)"
        case .decodingFailed(let why): "decoding failed: \(why)"
        case .readFailed(let why): "cannot read the file: \(why)"
        }
    }
}

/// One open audio file, decoded to `format`. Owned by one thread at a time (the event
/// loop opens it, then hands it to the decoder thread).
public protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Length in frames, when known.
    var frameCount: Int? { get }
    /// Tags and length, for the queue.
    var metadata: TrackMetadata { get }
    /// Decodes up to `buffer.count` samples (a multiple of the channel count) as 16-bit
    /// samples; 0 means the end. A source of more bits loses its low ones here: the engine reads
    /// such a decoder (its `format.sampleFormat` is `.s32`) as 32-bit samples instead.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int
    /// Decodes up to `buffer.count` samples as 32-bit samples, the source's bits at the top;
    /// 0 means the end. A 16-bit decoder's samples are widened (`Int32(sample) << 16`).
    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int
    /// Moves to `frame`; returns the frame it landed on.
    func seek(toFrame frame: Int) throws(DecoderError) -> Int
    /// The front cover from the file's tags (else the first picture); nil when there is none
    /// or the decoder was opened without pictures.
    func coverPicture() -> EmbeddedPicture?
}

extension AudioDecoder {
    /// 16-bit samples decoded into the top half of `buffer`'s memory and widened in place, from
    /// the first on: sample `i` is written to bytes `4i..<4i+4` after it was read from byte
    /// `2i + 2n`, and those bytes hold only samples already read.
    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let raw = UnsafeMutableRawPointer(base)
        let narrow = (raw + buffer.count * 2).bindMemory(to: Int16.self, capacity: buffer.count)
        let count = try read(into: UnsafeMutableBufferPointer(start: narrow, count: buffer.count))
        for index in 0..<count {
            let sample = (raw + buffer.count * 2 + index * 2).load(as: Int16.self)
            (raw + index * 4).storeBytes(of: Int32(sample) << 16, as: Int32.self)
        }
        raw.bindMemory(to: Int32.self, capacity: buffer.count)
        return count
    }
}

/// What opening a file tells before a sample is decoded: its format, exact length and tags.
public struct OpenedFile: Sendable {
    public let format: AudioFormat
    public let frameCount: Int?
    public let metadata: TrackMetadata
}

/// A decoder of one file format, opened on a file `AudioFileFormat` chose for it.
public protocol FileDecoder: AudioDecoder, Sendable {
    /// What opening the file told.
    var opened: OpenedFile { get }

    /// Decodes the file `input` has open (named `path`), which it then owns. `readsPictures`
    /// keeps the cover for `coverPicture()`; only probing needs it, not playback.
    init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError)
}

extension FileDecoder {
    public var format: AudioFormat { opened.format }
    public var frameCount: Int? { opened.frameCount }
    public var metadata: TrackMetadata { opened.metadata }

    /// Opens `path` and reads its format, length and tags.
    public init(path: String, readsPictures: Bool = false) throws(DecoderError) {
        try self.init(DecoderInput.open(path), path: path, readsPictures: readsPictures)
    }
}

/// What opening an item's decoder takes: its path or URL; what is known of it already (a
/// stream's format and length, from its probe or the resume state), with which playback
/// connects to a stream on the decoder thread instead of at once; and where a live stream's
/// titles go.
public struct DecoderRequest: Sendable {
    public var path: String
    /// The format and length known before opening; nil: found by opening.
    public var known: KnownFormat?
    /// Receives each title a live stream announces, on its transfer thread.
    public var onTitle: (@Sendable (StreamTitle) -> Void)?

    public init(path: String, known: KnownFormat? = nil, onTitle: (@Sendable (StreamTitle) -> Void)? = nil) {
        self.path = path
        self.known = known
        self.onTitle = onTitle
    }
}

/// An item's format and length as the queue knows them.
public struct KnownFormat: Sendable, Equatable {
    public var format: AudioFormat
    /// Frames; nil for a live stream.
    public var frames: Int?

    public init(format: AudioFormat, frames: Int?) {
        self.format = format
        self.frames = frames
    }
}

/// Opens decoders; the composition root chooses the implementation.
public typealias AudioDecoderFactory = @Sendable (DecoderRequest) throws(DecoderError) -> any AudioDecoder

/// Opens an engine item's decoder (the engine's `AudioDecoderFactory`, with the item's request).
typealias ItemOpener = @Sendable (EngineItem) throws(DecoderError) -> any AudioDecoder

extension TrackMetadata {
    /// What a file says before its tags are read: its name as the title, its length and format.
    static func untagged(path: String, format: AudioFormat, frames: Int?) -> TrackMetadata {
        TrackMetadata(
            title: FileName.stem(path), duration: FrameTime.seconds(frames ?? 0, rate: format.sampleRate),
            sampleRate: format.sampleRate, channels: format.channels)
    }
}
