import PlaybackModel

/// A decoder of an item fetched over HTTP(S): the format's own decoder, with what the response
/// adds to its tags. A live stream has no length (`frameCount` nil, `duration` 0); its station
/// (`icy-name`) is the `album`, and stands in for a title until the stream sends one. An
/// untagged file is named by the last segment of its URL.
final class StreamDecoder: AudioDecoder, @unchecked Sendable {
    private let decoder: any AudioDecoder
    let metadata: TrackMetadata
    let frameCount: Int?

    init(_ decoder: any AudioDecoder, url: String, source: HTTPSource) {
        self.decoder = decoder
        frameCount = source.isLive ? nil : decoder.frameCount
        var metadata = decoder.metadata
        let station = source.response.station.flatMap { $0.isEmpty ? nil : $0 }
        if source.isLive { metadata.duration = 0 }
        if metadata.album == nil { metadata.album = station }
        if metadata.title == FileName.stem(url) {
            metadata.title = (source.isLive ? station : nil) ?? FileName.stem(StreamURL.lastSegment(url))
        }
        self.metadata = metadata
    }

    var format: AudioFormat { decoder.format }

    func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        try decoder.read(into: buffer)
    }

    func read(into buffer: UnsafeMutableBufferPointer<Int32>) throws(DecoderError) -> Int {
        try decoder.read(into: buffer)
    }

    func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        guard frameCount != nil else { throw .unsupported("a live stream cannot seek") }
        return try decoder.seek(toFrame: frame)
    }

    func coverPicture() -> EmbeddedPicture? { decoder.coverPicture() }
}
