import PlaybackModel
import Testing

/// Which transitions fade (`Crossfade.fades`): the album rule without a daemon.
struct CrossfadeRuleTests {
    static func item(
        _ id: UInt64, album: String?, albumArtist: String? = nil, track: Int?, disc: Int? = nil
    ) -> QueueItem {
        var metadata = TrackMetadata(title: "t\(id)", album: album, duration: 200, sampleRate: 44_100, channels: 2)
        metadata.albumArtist = albumArtist
        metadata.trackNumber = track
        metadata.discNumber = disc
        return QueueItem(id: id, path: "/m/\(id).flac", metadata: metadata)
    }

    let albums = Crossfade(seconds: 5, mode: .albums)

    @Test("Consecutive tracks of one album stay gapless; everything else fades")
    func albumRule() {
        let one = Self.item(1, album: "OK Computer", albumArtist: "Radiohead", track: 1)
        let two = Self.item(2, album: "OK Computer", albumArtist: "Radiohead", track: 2)
        let four = Self.item(4, album: "OK Computer", albumArtist: "Radiohead", track: 4)
        let other = Self.item(5, album: "Lemonade", albumArtist: "Beyoncé", track: 2)
        #expect(!albums.fades(from: one, to: two))
        #expect(albums.fades(from: two, to: one), "backwards is not consecutive")
        #expect(albums.fades(from: two, to: four), "a track left out")
        #expect(albums.fades(from: one, to: other))
        #expect(albums.fades(from: other, to: one))
    }

    @Test("The next disc's first track follows the last; another album artist does not")
    func discsAndAlbumArtists() {
        let last = Self.item(1, album: "Box", track: 14, disc: 1)
        let first = Self.item(2, album: "Box", track: 1, disc: 2)
        let second = Self.item(3, album: "Box", track: 2, disc: 2)
        #expect(!albums.fades(from: last, to: first))
        #expect(albums.fades(from: last, to: second))
        let compilationOne = Self.item(4, album: "Greatest Hits", albumArtist: "A", track: 1)
        let compilationTwo = Self.item(5, album: "Greatest Hits", albumArtist: "B", track: 2)
        #expect(albums.fades(from: compilationOne, to: compilationTwo))
        let untitled = Self.item(6, album: nil, track: 1)
        let untitledNext = Self.item(7, album: nil, track: 2)
        #expect(albums.fades(from: untitled, to: untitledNext), "no album: nothing to keep together")
        let unnumbered = Self.item(8, album: "Box", track: nil)
        #expect(albums.fades(from: unnumbered, to: first), "no track numbers: no known order")
    }

    @Test("always fades between albums' tracks too; off, 0 s and repeat-one never fade")
    func modes() {
        let one = Self.item(1, album: "A", track: 1)
        let two = Self.item(2, album: "A", track: 2)
        #expect(Crossfade(seconds: 5, mode: .always).fades(from: one, to: two))
        #expect(!Crossfade(seconds: 5, mode: .off).fades(from: one, to: Self.item(3, album: "B", track: 1)))
        #expect(!Crossfade(seconds: 0, mode: .always).fades(from: one, to: two))
        #expect(!Crossfade(seconds: 5, mode: .always).fades(from: one, to: one), "the same item again")
    }
}
