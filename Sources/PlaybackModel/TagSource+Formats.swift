/// Where each tagging system keeps what a `TagSource` names: the one table the tag readers
/// and the generated field reference (docs/protocol.md) both follow.
extension TagSource {
    /// The Vorbis comments (FLAC, Ogg Vorbis, Opus) it is read from, the first found winning:
    /// the common name, then others taggers write (foobar2000, Picard, EasyTag). For a count,
    /// the comments that hold it alone; failing them, the `N/M` of the number's comment.
    public var vorbisComments: [String] {
        switch self {
        case .summary(.title): ["TITLE"]
        case .summary(.artist): ["ARTIST"]
        case .summary(.album): ["ALBUM"]
        case .frame("TPE2"): ["ALBUMARTIST", "ALBUM ARTIST"]
        case .frame("TCOM"): ["COMPOSER"]
        case .frame("TSRC"): ["ISRC"]
        case .frame: []
        case .genre: ["GENRE"]
        case .year: ["DATE", "YEAR"]
        case .number(ofFrame: "TRCK"): ["TRACKNUMBER"]
        case .number(ofFrame: "TPOS"): ["DISCNUMBER"]
        case .number: []
        case .count(ofFrame: "TRCK"): ["TRACKTOTAL", "TOTALTRACKS"]
        case .count(ofFrame: "TPOS"): ["DISCTOTAL", "TOTALDISCS"]
        case .count: []
        case .replayGain(let description): [description.uppercased()]
        case .userText(_, let vorbis): [vorbis]
        }
    }

    /// libavformat's key for it in MP4 (it names iTunes atoms so: `©nam` is `title`, `aART`
    /// `album_artist`, `trkn` `track`), WAV's INFO list and AIFF's text chunks; a count is the
    /// `N/M` of the number's key.
    public var ffmpegKey: String? {
        switch self {
        case .summary(.title): "title"
        case .summary(.artist): "artist"
        case .summary(.album): "album"
        case .frame("TPE2"): "album_artist"
        case .frame("TCOM"): "composer"
        case .frame("TSRC"): "isrc"
        case .frame: nil
        case .genre: "genre"
        case .year: "date"
        case .number(ofFrame: "TRCK"), .count(ofFrame: "TRCK"): "track"
        case .number(ofFrame: "TPOS"), .count(ofFrame: "TPOS"): "disc"
        case .number, .count: nil
        case .replayGain(let description): description.lowercased()
        case .userText(let id3, _): id3.lowercased()
        }
    }
}
