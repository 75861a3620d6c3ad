import CDecoderLibraries
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// AAC in MP4 (`.m4a`, `.m4b`), mono or stereo: the frames `MP4Movie` finds, decoded by libfaad
/// (faad2) to 16-bit samples, so that `faad` is the reference. Gapless: the item is the part
/// the edit list plays (the encoder's delay before it and its padding after are dropped), else
/// what iTunes' `iTunSMPB` says, else every frame. A seek decodes from `seekPrerollPackets`
/// frames before the target and drops what lies before it.
///
/// Owned by one thread at a time.
public final class AACDecoder: AudioDecoder {
    let opened: OpenedFile
    public var format: AudioFormat { opened.format }
    public var frameCount: Int? { opened.frameCount }
    public var metadata: TrackMetadata { opened.metadata }
    private let input: DecoderInput
    private let movie: MP4Movie
    private var handle: NeAACDecHandle
    private var cursor: MP4SampleCursor
    private var packet: [UInt8] = []
    private var pending = PendingSamples<Int16>()
    /// The output frame, from the media's start, where the edit (and the item) starts.
    private let editStart: Int
    /// The first frame of the item to output (after a seek: its target).
    private var firstFrame = 0
    private let cover: EmbeddedPicture?

    /// Frames decoded before a seek's target: a new decoder outputs nothing for its first
    /// frame, a frame is only right after the one before it (the transform's overlap), and
    /// HE-AAC's filters reach further.
    static let seekPrerollPackets = 4
    /// The largest frame read: 6,144 bits for each of 8 channels, with room to spare.
    static let largestFrame = 16_384

    /// Opens the AAC track of `movie`; nil when libfaad cannot play it (another codec, more
    /// than two channels, a configuration it refuses, or libfaad missing): FFmpeg then tries.
    init?(_ input: DecoderInput, movie: MP4Movie, path: String, readsPictures: Bool) {
        let track = movie.audio
        guard track.codec == MP4BoxType("mp4a"), [0x40, 0x66, 0x67, 0x68].contains(track.objectType),
            playbackd_faad_load() == 1, let (handle, rate, channels) = Self.open(track.decoderConfiguration)
        else { return nil }
        guard (1...2).contains(channels) else {
            playbackd_NeAACDecClose(handle)
            return nil
        }
        self.input = input
        self.movie = movie
        self.handle = handle
        cursor = MP4SampleCursor(track.samples)
        let format = AudioFormat(sampleRate: rate, channels: channels, sampleFormat: .s16)
        let toOutput = { (time: Int) in time * rate / track.timescale }
        let gapless =
            track.edit
            ?? movie.tags.text("itunsmpb").flatMap(Self.iTunesGapless).map {
                (start: $0.start * track.timescale / rate, duration: Optional($0.frames * track.timescale / rate))
            }
        editStart = toOutput(gapless?.start ?? 0)
        let whole = toOutput(track.samples.duration) - editStart
        let frames = max(0, min(whole, gapless?.duration.map(toOutput) ?? whole))
        opened = OpenedFile(
            format: format, frameCount: frames,
            metadata: movie.tags.applied(to: .untagged(path: path, format: format, frames: frames)))
        cover = readsPictures ? movie.tags.cover : nil
    }

    deinit { playbackd_NeAACDecClose(handle) }

    /// A decoder of 16-bit samples for the AudioSpecificConfig `configuration`, its rate and
    /// channels; nil when libfaad refuses it.
    private static func open(_ configuration: [UInt8]) -> (NeAACDecHandle, rate: Int, channels: Int)? {
        guard !configuration.isEmpty, let handle = playbackd_NeAACDecOpen() else { return nil }
        let settings = playbackd_NeAACDecGetCurrentConfiguration(handle)!
        settings.pointee.outputFormat = UInt8(FAAD_FMT_16BIT)
        settings.pointee.downMatrix = 0
        _ = playbackd_NeAACDecSetConfiguration(handle, settings)
        var rate: UInt = 0
        var channels: UInt8 = 0
        var specific = configuration
        guard playbackd_NeAACDecInit2(handle, &specific, UInt(specific.count), &rate, &channels) == 0, rate > 0 else {
            playbackd_NeAACDecClose(handle)
            return nil
        }
        return (handle, Int(rate), Int(channels))
    }

    /// iTunes' `iTunSMPB`: hexadecimal words, the second the encoder's delay, the fourth the
    /// length in samples.
    static func iTunesGapless(_ text: String) -> (start: Int, frames: Int)? {
        let words = text.split(separator: " ").compactMap { Int($0, radix: 16) }
        guard words.count >= 4, words[3] > 0, words[1] < MP4SampleTable.longest, words[3] < MP4SampleTable.longest
        else { return nil }
        return (words[1], words[3])
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecoderError) -> Int {
        let done = try pending.fill(buffer) { samples throws(DecoderError) in try decodeNextPacket(into: &samples) }
        if done == 0, let failure = input.readFailure { throw failure }
        return done
    }

    /// Decodes the next frame into `samples`, keeping what lies between `firstFrame` and the
    /// item's end; false at the end.
    private func decodeNextPacket(into samples: inout [Int16]) throws(DecoderError) -> Bool {
        let track = movie.audio
        let index = cursor.sample
        guard let next = cursor.next() else { return false }
        let start = next.start * format.sampleRate / track.timescale - editStart
        guard start < opened.frameCount ?? Int.max else { return false }
        // A frame larger than AAC's largest (6,144 bits per channel) is damaged: passed over.
        guard next.size <= Self.largestFrame else { return true }
        if packet.count < next.size { packet = [UInt8](repeating: 0, count: next.size) }
        _ = input.seek(to: off_t(next.offset), whence: SEEK_SET)
        let got = packet.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: next.size) }
        guard got == next.size else {
            throw input.readFailure ?? .decodingFailed("frame \(index) is cut short")
        }
        var info = NeAACDecFrameInfo()
        let output = packet.withUnsafeMutableBufferPointer {
            playbackd_NeAACDecDecode(handle, &info, $0.baseAddress, UInt(next.size))
        }
        // A frame libfaad refuses is passed over, as `faad` passes it over.
        guard info.error == 0, let output, info.channels == UInt8(format.channels) else { return true }
        let channels = format.channels
        let frames = Int(info.samples) / channels
        let from = min(frames, max(0, firstFrame - start))
        let to = min(frames, max(from, (opened.frameCount ?? Int.max) - start))
        let decoded = output.assumingMemoryBound(to: Int16.self)
        samples.append(contentsOf: UnsafeBufferPointer(start: decoded + from * channels, count: (to - from) * channels))
        return true
    }

    public func seek(toFrame frame: Int) throws(DecoderError) -> Int {
        let track = movie.audio
        let target = (min(max(0, frame), opened.frameCount ?? 0) + editStart) * track.timescale / format.sampleRate
        let found = track.samples.sample(at: target).index
        let start = max(0, found - Self.seekPrerollPackets)
        cursor.move(to: start)
        // A new decoder, as at the start: `NeAACDecPostSeekReset` keeps the last frame's
        // overlap, which makes the first frames after a seek differ from a decoding from the
        // start (by up to 41 LSB, measured seeking aac-long.m4a to 0).
        guard let (fresh, _, _) = Self.open(track.decoderConfiguration) else {
            throw .decodingFailed("libfaad cannot be opened again")
        }
        playbackd_NeAACDecClose(handle)
        handle = fresh
        pending.clear()
        firstFrame = frame
        return frame
    }

    public func coverPicture() -> EmbeddedPicture? { cover }
}
