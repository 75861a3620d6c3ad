import ControlProtocol
import PlaybackDaemon
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The parsers that read untrusted input, as fuzz targets. Each takes raw bytes and must
/// either produce a value or a typed error, never crash or hang; where a value can be written
/// back, writing it and reading it again must give the same value (an oracle beyond "no crash").
///
/// `Scripts/fuzz` builds this with `-sanitize=fuzzer,address` (libFuzzer's `main`, the target
/// chosen by `PLAYBACKD_FUZZ_TARGET`). A normal build gets a `main` that replays files through
/// a target instead: `playbackd-fuzz TARGET FILE...`, which the suite runs over the seed corpus
/// and every minimised crash (`Tests/Fuzz/`).
enum FuzzTarget: String, CaseIterable {
    /// A request line: the socket's decoder, from bytes to a typed command or `badRequest`.
    case request
    /// A `nowPlaying` object as the CLI reads it off the wire.
    case nowPlaying = "now-playing"
    /// A resume state file.
    case state
    /// A parametric EQ text (AutoEq's `ParametricEQ.txt`).
    case eqText = "eq-text"
    /// An audio file's bytes as the prober opens them: libmpg123's tag parser, then ours
    /// (text frames, genres, numbers, ReplayGain, the cover, ID3v2.2 pictures by hand).
    case id3
    /// A FLAC file's bytes (native or in Ogg) as the prober opens them: libFLAC's parser, then
    /// ours (the STREAMINFO checks, Vorbis comments to fields, the PICTURE chosen, frames
    /// interleaved).
    case flac
    /// An Ogg file's bytes opened as Vorbis and as Opus: libvorbisfile's and libopusfile's
    /// parsers, then ours (comments to fields, R128 gains, `METADATA_BLOCK_PICTURE` covers
    /// through `opus_picture_tag_parse`, the checks on chained links).
    case ogg
    /// An MP4, WAV or AIFF file's bytes opened as FFmpeg's libavformat and libavcodec open it
    /// for the prober, then ours (the atoms to fields, the attached cover, sample conversion,
    /// the end at the edit list's length).
    case mp4
    /// A raw ID3v2.2 tag (or its frames alone) read by our own `PIC` frame parser, the one
    /// binary tag parser that is ours and not libmpg123's, fed the bytes directly.
    case id3v22Pictures = "id3v22-pictures"
    /// A raw ID3v2.3 or 2.4 tag read by our `CHAP`/`CTOC` parser, then made into an item's
    /// chapter list.
    case id3Chapters = "id3-chapters"
    /// A playlist's bytes, read as M3U/M3U8 (each entry resolved to a path or URL) and as PLS.
    case m3u
    /// A live stream's body with ICY metadata (the first byte sets the interval; the rest
    /// arrives in pieces of every size up to 255).
    case icy
    /// The TOML configuration file, applied to the default settings.
    case config
    /// A level envelope cut into phrases: the first five bytes choose the parameters within
    /// their ranges, each later byte is one window's level (half-dB steps from -120 dBFS), up
    /// to 2,048 windows (20 s: room for every rule, with phrases of at most 2 - 30 s).
    case phrases
    /// A line of MPD's protocol: its words (quotes and escapes), then its search (the old
    /// pairs, filter expressions); the words written back quoted must read the same.
    case mpdLine = "mpd-line"

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .request:
            if case .success(let request) = RequestDecoder.decode(bytes) {
                // A decoded command always has a wire name the catalog knows.
                _ = CommandCatalog.spec(request.command.name)
            }
        case .nowPlaying:
            guard let json = try? JSONParser.parse(bytes), let snapshot = try? NowPlaying(json: json) else { return }
            // The wire rounds times to microseconds, so the first write may differ from what
            // was read; from then on writing and reading must change nothing.
            func roundTrip(_ value: NowPlaying) -> NowPlaying? {
                try? NowPlaying(json: try JSONParser.parse(Array(value.json.serialized.utf8)))
            }
            let written = roundTrip(snapshot)
            check(written != nil && roundTrip(written!) == written, "nowPlaying does not read back what it writes")
        case .state:
            check(StateFileReading.readsBack(bytes) != false, "the state file does not read back")
        case .eqText:
            guard let text = String(validating: bytes, as: UTF8.self),
                let equalizer = try? ParametricEQText.parse(text)
            else { return }
            let again = try? ParametricEQText.parse(ParametricEQText.format(equalizer))
            check(again?.bands.count == equalizer.bands.count, "a parsed curve does not read back")
        case .id3:
            readAsAudioFile(bytes, as: MPG123Decoder.self)
        case .flac:
            readAsAudioFile(bytes, as: FLACDecoder.self)
        case .ogg:
            readAsAudioFile(bytes, as: VorbisDecoder.self)
            readAsAudioFile(bytes, as: OpusDecoder.self)
        case .mp4:
            readAsAudioFile(bytes, as: FFmpegDecoder.self)
            readAsAudioFile(bytes) { path throws(DecoderError) in try AudioFileFormat.open(path, readsPictures: true) }
        case .id3v22Pictures:
            if let picture = ID3v22Pictures.cover(rawTag: bytes) {
                // The image is the rest of a frame's body: never empty, never more than was read.
                check(
                    !picture.data.isEmpty && picture.data.count < bytes.count,
                    "a picture of \(picture.data.count) bytes")
                check(!picture.mimeType.isEmpty, "a picture without a type")
            }
        case .id3Chapters:
            let found = ID3Chapters.read(rawTag: bytes)
            let chapters = Chapter.normalized(found, duration: 3600)
            check(chapters.count <= min(found.count, Chapter.maximumCount), "more chapters than the tag holds")
            for (index, chapter) in chapters.enumerated() {
                let end = index + 1 < chapters.count ? chapters[index + 1].start : 3600
                check(
                    chapter.start >= 0 && chapter.start < chapter.end && chapter.end == end, "chapters that do not tile"
                )
                check(!chapter.title.isEmpty, "an untitled chapter")
            }
        case .m3u:
            let playlist = M3UPlaylist(bytes: Array(bytes))
            for entry in playlist.entries {
                check(!entry.location.isEmpty && entry.title?.isEmpty != true, "an empty playlist entry or title")
                if let path = M3UPlaylist.path(of: entry.location, base: "/music") {
                    // By bytes, as the daemon decides it: a combining mark after the slash
                    // makes one Character of the two, and the path is absolute all the same.
                    check(
                        path.hasPrefix(bytes: "/") || StreamURL.isStream(path),
                        "a playlist entry resolved to a relative path")
                }
            }
            for entry in PLSPlaylist(bytes: Array(bytes)).entries {
                check(!entry.location.isEmpty && entry.title?.isEmpty != true, "an empty PLS entry or title")
            }
        case .icy:
            guard let first = bytes.first else { return }
            var demuxer = ICYDemuxer(interval: Int(first) + 1)
            var audio = 0
            var titles = 0
            var offset = 1
            var piece = 1
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                let going = demuxer.split(
                    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<end])),
                    audio: {
                        audio += $0.count; return true
                    },
                    title: { _ in titles += 1 })
                check(going, "the demuxer stopped by itself")
                offset = end
                piece = piece % 255 + 1
            }
            // Each metadata block costs at least its length byte, and blocks of up to 4080.
            check(audio <= bytes.count - 1 && audio + titles <= bytes.count - 1, "more out than went in")
        case .mpdLine:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            check(MPDLineReading.readsBack(text) != false, "an MPD line does not read back its words")
        case .phrases:
            guard bytes.count > 5 else { return }
            func within(_ range: ClosedRange<Double>, _ byte: UInt8) -> Double {
                range.lowerBound + (range.upperBound - range.lowerBound) * Double(byte) / 255
            }
            let parameters = PhraseParameters(
                threshold: within(PhraseParameters.thresholdRange, bytes[0]),
                minimumSilence: within(PhraseParameters.minimumSilenceRange, bytes[1]),
                minimumPhrase: within(PhraseParameters.minimumPhraseRange, bytes[2]),
                maximumPhrase: within(2...30, bytes[3]), padding: within(PhraseParameters.paddingRange, bytes[4]))
            let levels = bytes.dropFirst(5).prefix(2048).map { Float(pow(10, (-120 + Double($0) / 2) / 10)) }
            let duration = Double(levels.count) / 100
            let found = PhraseDetector(parameters).phrases(
                meanSquares: levels, windows: 0..<levels.count, duration: duration)
            for (index, phrase) in found.enumerated() {
                check(phrase.start >= 0 && phrase.start < phrase.end && phrase.end <= duration, "a phrase \(phrase)")
                check(
                    phrase.length <= parameters.maximumPhrase + 2 * parameters.padding + 0.02,
                    "a phrase longer than the maximum: \(phrase)")
                if index > 0 { check(found[index - 1].end <= phrase.start, "phrases out of order") }
            }
        case .config:
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            var settings = DaemonSettings()
            do throws(ConfigurationError) {
                try ConfigurationFile.apply(text, path: "config.toml", to: &settings)
            } catch {
                // An error names a line of the file, if any (lines end in LF; a CR LF is one
                // Character, so count bytes).
                let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count
                check(
                    error.line.map { (1...lines).contains($0) } ?? true, "an error names a line past the end: \(error)")
            }
        }
    }

    /// Writes `bytes` to a file in memory and opens it with a `kind` decoder as the prober does, tags and cover
    /// included, then decodes a little of it.
    private func readAsAudioFile(_ bytes: UnsafeBufferPointer<UInt8>, as kind: any FileDecoder.Type) {
        readAsAudioFile(bytes) { path throws(DecoderError) in try kind.init(path: path, readsPictures: true) }
    }

    /// Writes `bytes` to a file, opens it with `open` and reads its tags, cover and first samples.
    private func readAsAudioFile(
        _ bytes: UnsafeBufferPointer<UInt8>, opening open: (String) throws(DecoderError) -> any AudioDecoder
    ) {
        let fd = Self.memoryFile
        guard ftruncate(fd, 0) == 0, bytes.isEmpty || pwrite(fd, bytes.baseAddress, bytes.count, 0) == bytes.count
        else { return check(false, "cannot write the input file") }
        guard let decoder = try? open("/proc/self/fd/\(fd)") else { return }
        let metadata = decoder.metadata
        check(!metadata.title.isEmpty && metadata.duration.isFinite && metadata.duration >= 0, "bad metadata")
        if let picture = decoder.coverPicture() { check(!picture.data.isEmpty, "an empty cover") }
        var samples = [Int16](repeating: 0, count: 4_608)
        for _ in 0..<4 {
            guard let count = try? samples.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }), count > 0
            else { break }
        }
    }

    /// An unlinked file on tmpfs, opened again through `/proc/self/fd` for each input.
    private static let memoryFile: Int32 = {
        var template = Array("/dev/shm/playbackd-fuzz-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { fatalError("playbackd-fuzz: cannot create a file in /dev/shm") }
        unlink(template)
        return fd
    }()

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        Console.error("playbackd-fuzz \(rawValue): \(message())\n")
        abort()
    }
}

#if FUZZING
    /// libFuzzer's driver, for a program that has its own `main` (SwiftPM links one).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    nonisolated(unsafe) private var selectedTarget = FuzzTarget.request

    /// The input callback libFuzzer's runtime links against.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        selectedTarget.run(UnsafeBufferPointer(start: data, count: size))
        return 0
    }

    @main
    struct Fuzz {
        /// libFuzzer's command line; the target is `PLAYBACKD_FUZZ_TARGET`.
        static func main() {
            let name = getenv("PLAYBACKD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
            guard let target = FuzzTarget(rawValue: name) else {
                Console.error("PLAYBACKD_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))\n")
                exit(2)
            }
            selectedTarget = target
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(
                runFuzzerDriver(&argc, &argv, fuzzOneInput))
        }
    }
#else
    @main
    struct Replay {
        /// `playbackd-fuzz TARGET FILE...`: each file through the target; exit 0 when none crashed.
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                Console.error(
                    "usage: playbackd-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE...\n")
                exit(2)
            }
            for path in arguments.dropFirst() {
                guard let file = fopen(path, "rb") else {
                    Console.error("playbackd-fuzz: cannot open \(path)\n")
                    exit(1)
                }
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = fread(&chunk, 1, chunk.count, file)
                    if count <= 0 { break }
                    bytes += chunk[..<count]
                }
                fclose(file)
                bytes.withUnsafeBufferPointer { target.run($0) }
            }
            print("\(arguments.count - 1) inputs through \(target.rawValue)")
        }
    }
#endif
