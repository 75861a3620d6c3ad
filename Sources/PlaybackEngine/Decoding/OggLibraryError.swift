import CDecoderLibraries

/// The error codes libvorbisfile (`OV_*`) and libopusfile (`OP_*`) return, in words: the two
/// libraries number them alike (vorbis/codec.h, opusfile.h).
enum OggLibraryError {
    static func describe(_ code: Int32) -> String {
        switch code {
        case OP_EREAD: "a read failed"
        case OP_EFAULT: "out of memory or an internal error"
        case OP_EIMPL: "a feature the library does not implement"
        case OP_ENOTFORMAT: "no stream of this format"
        case OP_EBADHEADER: "a bad header"
        case OP_EVERSION: "an unknown version"
        case OP_ENOTAUDIO, OP_EBADPACKET: "a bad packet"
        case OP_EBADLINK: "a bad link in the stream"
        case OP_ENOSEEK: "the stream cannot seek"
        case OP_EBADTIMESTAMP: "a bad granule position"
        default: "error \(code)"
        }
    }
}
