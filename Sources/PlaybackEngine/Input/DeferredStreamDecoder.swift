import PlaybackModel
import SystemSupport

/// A stream's decoder for playback whose connection is made by the decoder thread, at its
/// first read or seek, not by the thread that opens it: `PlaybackEngine.start` opens the
/// current item on the event loop, which must never wait on a server (one that stalls
/// would hold every client for `stallSeconds`). The format and length come from the queue
/// (the stream's probe, or the resume state). If the stream now sends another rate or channel
/// count, or cannot be reached, the first read says so and the item ends there, as a file
/// that fails part-way does.
final class DeferredStreamDecoder: AudioDecoder, @unchecked Sendable {
    let format: AudioFormat
    let frameCount: Int?
    let metadata: TrackMetadata
    private let open: () throws(DecoderError) -> any AudioDecoder
    private var decoder: (any AudioDecoder)?

    init(url: String, format: AudioFormat, frames: Int?, open: @escaping () throws(DecoderError) -> any AudioDecoder) {
        self.format = format
        frameCount = frames
        metadata = .untagged(path: url, format: format, frames: frames)
        self.open = open
    }

    private func opened() throws(DecoderError) -> any AudioDecoder {
        if let decoder { return decoder }
        let new = try open()
        // The rate and channels must be those the device was opened with. A 24-bit stream
        // known only from the resume state (which keeps no sample size) plays as 16 bits.
        guard new.format.sampleRate == format.sampleRate, new.format.channels == format.channels else {
            throw .decodingFailed("the stream changed since it was enqueued (\(new.format), was \(format))")
        }
        decoder = new
        return new
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        try opened().read(into: buffer)
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        try opened().read(into: buffer)
    }

    func seek(toFrame frame: Int) throws(DecoderError) -> Int { try opened().seek(toFrame: frame) }

    func coverPicture() -> EmbeddedPicture? { nil }
}
