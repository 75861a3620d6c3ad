#if canImport(Glibc)
    import Glibc
#endif

/// Opens an MP4 file: AAC, mono or stereo, with libfaad (`AACDecoder`); anything else (ALAC,
/// more channels, a fragmented or damaged file `MP4Movie` cannot read) with FFmpeg, which
/// says why when it cannot either.
enum MP4Decoding {
    static func open(_ input: DecoderInput, path: String, readsPictures: Bool) throws(DecoderError)
        -> any AudioDecoder
    {
        if let movie = try? MP4Movie(input),
            let decoder = AACDecoder(input, movie: movie, path: path, readsPictures: readsPictures)
        {
            return decoder
        }
        if let failure = input.readFailure { throw failure }
        _ = input.seek(to: 0, whence: SEEK_SET)
        return try FFmpegDecoder(input, path: path, readsPictures: readsPictures)
    }
}
