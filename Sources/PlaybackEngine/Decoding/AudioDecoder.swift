import PlaybackModel

/// Why a file cannot be decoded. Each case maps to `noSuchContent` at the server edge.
public enum DecoderError: Error, Equatable, CustomStringConvertible {
    case fileNotFound
    case permissionDenied
    case notAFile
    case notMPEGAudio(String)
    case decodingFailed(String)
    /// The file could not be read (an I/O error): `strerror`'s text.
    case readFailed(String)

    public var description: String {
        switch self {
        case .fileNotFound: "no such file"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .notMPEGAudio(let why): "not an MPEG audio file (\(why))"
        case .decodingFailed(let why): "decoding failed: \(why)"
        case .readFailed(let why): "cannot read the file: \(why)"
        }
    }
}

/// One open audio file, decoded to `format`. Owned by one thread at a time (the control
/// thread opens it, then hands it to the decoder thread).
public protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Length in frames, when known.
    var frameCount: Int? { get }
    /// Tags and length, for the queue.
    var metadata: TrackMetadata { get }
    /// Decodes up to `buffer.count` samples (a multiple of the channel count); 0 means the end.
    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int
    /// Moves to `frame`; returns the frame it landed on.
    func seek(toFrame frame: Int) throws(DecoderError) -> Int
    /// The front cover from the file's tags (else the first picture); nil when there is none
    /// or the decoder was opened without pictures.
    func coverPicture() -> EmbeddedPicture?
}

/// Opens decoders for paths; the composition root chooses the implementation.
public typealias AudioDecoderFactory = @Sendable (String) throws(DecoderError) -> any AudioDecoder
