import CDecoderLibraries
import PlaybackModel
import SystemSupport

/// A FLAC file, native or in Ogg, decoded by libFLAC: the exact length from STREAMINFO,
/// sample-exact seeking (`FLAC__stream_decoder_seek_absolute`), tags from the VORBIS_COMMENT
/// block and the cover from a PICTURE block. Samples of 16 bits and fewer play as 16-bit
/// samples, deeper ones (up to libFLAC's 32) as 32-bit samples; fewer bits than the samples
/// hold are moved to the top, every value kept.
///
/// Owned by one thread at a time; the libFLAC decoder is not shared.
public final class FLACDecoder: FileDecoder, @unchecked Sendable {
    public let opened: OpenedFile
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let stream: FLACStream

    public init(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError) {
        // libFLAC passes over an ID3v2 tag before the marker itself.
        let head = input.head(AudioFileFormat.headSize)
        let ogg = AudioFileFormat.isOggFLAC(head)
        guard ogg || AudioFileFormat.isNativeFLAC(head) || head.starts(with: Array("ID3".utf8)) else {
            throw .notFLAC(input.size == 0 ? "empty file" : "no fLaC marker")
        }
        guard playbackd_flac_load() == 1 else { throw .unsupported("FLAC: libFLAC (libflac12) cannot be loaded") }
        let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
        let stream: FLACStream
        let info: FLAC__StreamMetadata_StreamInfo
        do throws(DecoderError) {
            (decoder, stream, info) = try Self.start(input, ogg: ogg, readsPictures: readsPictures)
        } catch {
            // A PICTURE block whose lengths disagree (one claiming gigabytes) stops libFLAC at
            // the metadata, although the audio is whole: read the file again, pictures skipped.
            guard readsPictures, input.readFailure == nil, input.seek(to: 0, whence: SEEK_SET) == 0 else { throw error }
            (decoder, stream, info) = try Self.start(input, ogg: ogg, readsPictures: false)
        }
        guard info.sample_rate > 0, (1...8).contains(info.channels) else {
            playbackd_FLAC__stream_decoder_delete(decoder)
            throw .notFLAC("STREAMINFO says \(info.sample_rate) Hz, \(info.channels) channels")
        }
        self.decoder = decoder
        self.stream = stream
        let format = AudioFormat(
            sampleRate: Int(info.sample_rate), channels: Int(info.channels),
            sampleFormat: info.bits_per_sample > 16 ? .s32 : .s16)
        let frameCount = info.total_samples > 0 ? Int(info.total_samples) : nil
        opened = OpenedFile(
            format: format, frameCount: frameCount,
            metadata: VorbisComments(entries: stream.comments).applied(
                to: .untagged(path: path, format: format, frames: frameCount)))
    }

    deinit { playbackd_FLAC__stream_decoder_delete(decoder) }

    /// A libFLAC decoder on `input`, through its metadata: the decoder, the callbacks' stream and
    /// STREAMINFO.
    private static func start(_ input: DecoderInput, ogg: Bool, readsPictures: Bool) throws(DecoderError) -> (
        UnsafeMutablePointer<FLAC__StreamDecoder>, FLACStream, FLAC__StreamMetadata_StreamInfo
    ) {
        guard let decoder = playbackd_FLAC__stream_decoder_new() else { throw .decodingFailed("out of memory") }
        let stream = FLACStream(input, keepsPictures: readsPictures)
        playbackd_FLAC__stream_decoder_set_md5_checking(decoder, 0)
        playbackd_FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT)
        if readsPictures { playbackd_FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_PICTURE) }
        guard stream.start(decoder, ogg: ogg) == FLAC__STREAM_DECODER_INIT_STATUS_OK,
            playbackd_FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0, let info = stream.info
        else {
            playbackd_FLAC__stream_decoder_delete(decoder)
            throw input.readFailure ?? .notFLAC(stream.complaint ?? "no STREAMINFO block")
        }
        return (decoder, stream, info)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        try decode(into: buffer)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        try decode(into: buffer)
    }

    private func decode<Sample: PCMSample>(into buffer: UnsafeMutableBufferPointer<Sample>) throws(DecoderError) -> Int
    {
        var done = 0
        while done < buffer.count {
            if stream.hasPending {
                done += stream.take(into: buffer, at: done)
                continue
            }
            if playbackd_FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM { break }
            // An aborted decoder (a read error, a frame the stream cannot hold) answers `true`
            // to every call from then on: its state says it stopped.
            guard playbackd_FLAC__stream_decoder_process_single(decoder) != 0, isDecoding else {
                // What was decoded plays; the error comes with the next read.
                if stream.hasPending { continue }
                if done > 0 { return done }
                throw stream.input.readFailure ?? stream.failure ?? .decodingFailed(stateText)
            }
        }
        return done
    }

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        stream.discardPending()
        guard frame >= 0, playbackd_FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(frame)) != 0 else {
            let reason = stream.input.readFailure ?? .decodingFailed("cannot seek to sample \(frame): \(stateText)")
            // After a failed seek libFLAC decodes again only once flushed.
            playbackd_FLAC__stream_decoder_flush(decoder)
            throw reason
        }
        return frame
    }

    public func coverPicture() -> EmbeddedPicture? { stream.picture }

    /// Whether the decoder is reading the stream or at its end, rather than stopped by an error.
    private var isDecoding: Bool {
        switch playbackd_FLAC__stream_decoder_get_state(decoder) {
        case FLAC__STREAM_DECODER_SEARCH_FOR_METADATA, FLAC__STREAM_DECODER_READ_METADATA,
            FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC, FLAC__STREAM_DECODER_READ_FRAME,
            FLAC__STREAM_DECODER_END_OF_STREAM:
            true
        default: false
        }
    }

    private var stateText: String {
        String(cString: playbackd_FLAC__stream_decoder_get_resolved_state_string(decoder))
    }
}
