import PlaybackModel
import Testing

/// The title of an untagged file and the extension that decides how a path is enqueued.
@Suite struct FileNameTests {
    @Test(arguments: [
        ("/music/Song.MP3", "Song", "mp3"),
        ("/music/album.v2/track", "track", ""),
        ("/music/.hidden", ".hidden", ""),
        ("/music/list.M3U8", "list", "m3u8"),
        ("relative.pls", "relative", "pls"),
        ("/music/a.b.c.Flac", "a.b.c", "flac"),
        ("/music/trailing.", "trailing", ""),
        ("/music/Ünïcödé.MP3", "Ünïcödé", "mp3"),
        ("/music/e\u{301}.\u{301}X", "e\u{301}", "\u{301}x"),
        ("/music/dir/", "", ""),
        ("/music/long.ExtensionOfTwentyFour", "long", "extensionoftwentyfour"),
    ])
    func parts(path: String, stem: String, fileExtension: String) {
        #expect(FileName.stem(path) == stem)
        #expect(FileName.extension(path) == fileExtension)
    }
}
