import PlaybackModel
import Testing

@Suite struct StreamURLTests {
    @Test("http and https in any case are streams; paths and other schemes are not")
    func recognizesStreams() {
        #expect(StreamURL.isStream("http://host/a.mp3"))
        #expect(StreamURL.isStream("HTTPS://host/a.mp3"))
        #expect(!StreamURL.isStream("/music/http://x.mp3"))
        #expect(!StreamURL.isStream("ftp://host/a.mp3"))
        #expect(!StreamURL.isStream("file:///a.mp3"))
        #expect(StreamURL.hasScheme("ftp://host/a.mp3") && StreamURL.hasScheme("http://h"))
        #expect(!StreamURL.hasScheme("music/a:b.mp3") && !StreamURL.hasScheme("/a:b"))
    }

    @Test("credentials are taken out for logs and titles; the rest is kept")
    func redactsCredentials() {
        #expect(StreamURL.redacted("https://user:secret@host:8000/live?key=1") == "https://host:8000/live?key=1")
        #expect(StreamURL.redacted("http://host/a@b.mp3") == "http://host/a@b.mp3")
        #expect(StreamURL.redacted("http://host") == "http://host")
    }

    @Test("the last path segment, percent-decoded, names an untagged item; the host when there is no path")
    func lastSegment() {
        #expect(StreamURL.lastSegment("http://h/pod/episode%2012.mp3?x=1#t") == "episode 12.mp3")
        #expect(StreamURL.lastSegment("http://u:p@radio.example:8000") == "radio.example:8000")
        #expect(StreamURL.lastSegment("http://radio.example/") == "radio.example")
        #expect(StreamURL.extension("http://h/a/B.MP3?x") == "mp3")
    }

    @Test("a stream URL is its own URL on the wire both ways")
    func wireURL() {
        #expect(StreamURL.url(ofItem: "http://h/a b.mp3") == "http://h/a b.mp3")
        #expect(StreamURL.url(ofItem: "/m/a b.mp3") == "file:///m/a%20b.mp3")
        #expect(StreamURL.item(fromURL: "https://h/x.mp3") == "https://h/x.mp3")
        #expect(StreamURL.item(fromURL: "file:///m/a%20b.mp3") == "/m/a b.mp3")
        #expect(StreamURL.item(fromURL: "ftp://h/x.mp3") == nil)
    }
}
