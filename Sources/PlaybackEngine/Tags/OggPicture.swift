import CDecoderLibraries
import PlaybackModel

/// The cover among a Vorbis or Opus stream's `METADATA_BLOCK_PICTURE` comments: the front
/// cover (type 3), else the first. Each is read by libopusfile's `opus_picture_tag_parse`
/// (base64 of a FLAC PICTURE block, the same in both formats); a picture given by URL, or one
/// that does not parse, is passed over.
enum OggPicture {
    static func cover(_ blocks: [String]) -> EmbeddedPicture? {
        guard !blocks.isEmpty, playbackd_opusfile_load() == 1 else { return nil }
        var first: EmbeddedPicture?
        for block in blocks {
            var tag = OpusPictureTag()
            playbackd_opus_picture_tag_init(&tag)
            defer { playbackd_opus_picture_tag_clear(&tag) }
            guard playbackd_opus_picture_tag_parse(&tag, block) == 0, tag.format != OP_PIC_FORMAT_URL,
                let data = tag.data, tag.data_length > 0
            else { continue }
            let picture = EmbeddedPicture(
                mimeType: tag.mime_type.map { String(cString: $0) }?.lowercased() ?? "",
                data: Array(UnsafeBufferPointer(start: data, count: Int(tag.data_length))))
            if tag.type == 3 { return picture }
            if first == nil { first = picture }
        }
        return first
    }
}

extension VorbisComments {
    /// What an Ogg file (Vorbis or Opus) is, from its format, its length as the library gives
    /// it (`total`, 0 or less when unknown) and these comments (`adjust` adds what the codec's
    /// own tags say); with its cover when asked for.
    func openedFile(
        path: String, format: AudioFormat, total: Int64, readsPictures: Bool,
        adjust: (inout TrackMetadata) -> Void = { _ in }
    ) -> (OpenedFile, EmbeddedPicture?) {
        let frameCount = total > 0 ? Int(total) : nil
        var metadata = applied(to: .untagged(path: path, format: format, frames: frameCount))
        adjust(&metadata)
        let opened = OpenedFile(format: format, frameCount: frameCount, metadata: metadata)
        return (opened, readsPictures ? OggPicture.cover(pictureBlocks) : nil)
    }
}
