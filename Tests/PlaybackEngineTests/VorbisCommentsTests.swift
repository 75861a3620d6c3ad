import PlaybackModel
import Testing

@testable import PlaybackEngine

/// Vorbis comments read into the fields `TrackField.all` declares, as taggers write them.
@Suite struct VorbisCommentsTests {
    private func read(_ entries: [String]) -> TrackMetadata {
        VorbisComments(entries: entries.map { Array($0.utf8) })
            .applied(to: TrackMetadata(title: "file name", duration: 1, sampleRate: 44_100, channels: 2))
    }

    @Test("keys without regard to case; the first of a repeated key wins; broken entries are passed over")
    func keys() {
        let tags = read(["title=First", "TITLE=Second", "Artist=A=B", "=nothing", "no equals sign", "ALBUM="])
        #expect(tags.title == "First")
        #expect(tags.artist == "A=B", "only the first = separates")
        #expect(tags.album == nil, "an empty value is no value")
    }

    @Test("numbers: N/M or N with a separate total; years from dates; other names for the album artist")
    func numbers() {
        let slashed = read(["TRACKNUMBER=3/12", "DISCNUMBER=1/2", "DATE=1999-12-31", "ALBUM ARTIST=Band"])
        #expect(slashed.trackNumber == 3 && slashed.trackCount == 12)
        #expect(slashed.discNumber == 1 && slashed.discCount == 2)
        #expect(slashed.year == 1999)
        #expect(slashed.albumArtist == "Band")
        let separate = read(["TRACKNUMBER=7", "TOTALTRACKS=9", "DISCTOTAL=3", "YEAR=2004", "ALBUMARTIST=First"])
        #expect(separate.trackNumber == 7 && separate.trackCount == 9)
        #expect(separate.discNumber == nil && separate.discCount == 3)
        #expect(separate.year == 2004 && separate.albumArtist == "First")
        let broken = read(["TRACKNUMBER=x", "DATE=99", "TRACKTOTAL=-1"])
        #expect(broken.trackNumber == nil && broken.trackCount == nil && broken.year == nil)
    }

    @Test("MusicBrainz Picard's identifiers and the ISRC, under their comments' names")
    func identifiers() {
        let tags = read([
            "MUSICBRAINZ_TRACKID=b1a9c0e9-d987-4042-ae91-78d6a3267d69",
            "musicbrainz_releasetrackid=7c1d9b1e-0000-4000-8000-000000000001",
            "MUSICBRAINZ_ALBUMID=1e0eee38-a9f6-49bf-84d0-45d0647799af",
            "MUSICBRAINZ_ARTISTID=a74b1b7f-71a5-4011-9441-d0b5e4122711",
            "MUSICBRAINZ_ARTISTID=second-artist", "MUSICBRAINZ_RELEASEGROUPID=5a7d1f46-2a5e-3a6f-8d8a-e3a4c4d3f3b1",
            "ISRC=GBAYE0601498",
        ])
        #expect(tags.musicBrainzTrackID == "b1a9c0e9-d987-4042-ae91-78d6a3267d69")
        #expect(tags.musicBrainzReleaseTrackID == "7c1d9b1e-0000-4000-8000-000000000001")
        #expect(tags.musicBrainzAlbumID == "1e0eee38-a9f6-49bf-84d0-45d0647799af")
        #expect(tags.musicBrainzArtistID == "a74b1b7f-71a5-4011-9441-d0b5e4122711", "the first of several")
        #expect(tags.musicBrainzReleaseGroupID == "5a7d1f46-2a5e-3a6f-8d8a-e3a4c4d3f3b1")
        #expect(tags.isrc == "GBAYE0601498")
    }

    @Test("ReplayGain values with and without the unit; untagged keeps the file name as title")
    func replayGainAndFallback() {
        let tags = read([
            "REPLAYGAIN_TRACK_GAIN=-6.20 dB", "replaygain_track_peak=0.988312", "REPLAYGAIN_ALBUM_GAIN=+1.5",
            "REPLAYGAIN_ALBUM_PEAK=nan",
        ])
        #expect(tags.replayGainTrackGain == -6.2 && tags.replayGainTrackPeak == 0.988312)
        #expect(tags.replayGainAlbumGain == 1.5 && tags.replayGainAlbumPeak == nil)
        #expect(tags.title == "file name")
    }

    @Test("a format is known by its first bytes; the extension only breaks ties")
    func recognition() {
        let flac = Array("fLaC".utf8) + [0, 0, 0, 34]
        let id3 = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2, 0, 0] + flac
        var ogg = Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, 51]
        ogg += [0x7F] + Array("FLAC".utf8)
        #expect(AudioFileFormat.isNativeFLAC(flac) && AudioFileFormat.isNativeFLAC(id3))
        #expect(!AudioFileFormat.isNativeFLAC(Array("fLa".utf8)) && !AudioFileFormat.isNativeFLAC(ogg))
        #expect(AudioFileFormat.isOggFLAC(ogg))
        var vorbis = ogg
        vorbis[28...32] = [1] + Array("vorb".utf8)
        #expect(!AudioFileFormat.isOggFLAC(vorbis) && !AudioFileFormat.isOggFLAC(Array(ogg.prefix(30))))
        #expect(
            AudioFileFormat.mpeg.recognizes([0xFF, 0xFB, 0x90][...])
                && !AudioFileFormat.mpeg.recognizes([0xFF, 0xE0][...]))
        #expect(AudioFileFormat.allExtensions.isSuperset(of: ["flac", "mp3"]))
    }
}
