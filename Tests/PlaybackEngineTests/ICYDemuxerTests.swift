import Testing

@testable import PlaybackEngine

/// ICY in-band metadata: the audio parted from the metadata blocks whatever the pieces the
/// network delivers, and `StreamTitle` read as servers write it.
@Suite struct ICYDemuxerTests {
    /// A body as a server sends it: `interval` bytes of audio, then a block (or a zero byte).
    private func body(audio: [UInt8], interval: Int, titles: [String?]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, start) in stride(from: 0, to: audio.count, by: interval).enumerated() {
            bytes += audio[start..<min(start + interval, audio.count)]
            guard start + interval <= audio.count else { break }
            if let title = titles[index % titles.count] {
                var text = Array("StreamTitle='\(title)';StreamUrl='';".utf8)
                text += [UInt8](repeating: 0, count: (16 - text.count % 16) % 16)
                bytes += [UInt8(text.count / 16)] + text
            } else {
                bytes.append(0)
            }
        }
        return bytes
    }

    @Test("audio and titles come apart exactly, in pieces of every size", arguments: [1, 7, 16, 100, 1000, 100_000])
    func partsAudioFromTitles(piece: Int) {
        let audio = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sent = body(audio: audio, interval: 4000, titles: ["Artist - One", nil, "It's \u{e9}t\u{e9}"])
        var demuxer = ICYDemuxer(interval: 4000)
        var received: [UInt8] = []
        var titles: [String] = []
        for start in stride(from: 0, to: sent.count, by: piece) {
            let chunk = Array(sent[start..<min(start + piece, sent.count)])
            let going = chunk.withUnsafeBytes { bytes in
                demuxer.split(
                    bytes,
                    audio: {
                        received += $0; return true
                    }, title: { titles.append($0) })
            }
            #expect(going)
        }
        #expect(received == audio)
        #expect(titles.count == 8)
        #expect(titles.prefix(3) == ["Artist - One", "It's \u{e9}t\u{e9}", "Artist - One"])
    }

    @Test("a StreamTitle ends at its closing quote and semicolon; Latin-1 where it is not UTF-8")
    func readsStreamTitle() {
        #expect(
            ICYDemuxer.streamTitle(in: Array("StreamTitle='Guns N' Roses - Patience';".utf8))
                == "Guns N' Roses - Patience")
        #expect(ICYDemuxer.streamTitle(in: Array("StreamTitle='';".utf8)) == "")
        #expect(ICYDemuxer.streamTitle(in: Array("StreamUrl='x';".utf8)) == nil)
        #expect(ICYDemuxer.streamTitle(in: Array("StreamTitle='Caf".utf8) + [0xE9] + Array("';".utf8)) == "Caf\u{e9}")
        #expect(ICYDemuxer.streamTitle(in: Array("StreamTitle='Unterminated".utf8) + [0, 0]) == "Unterminated")
    }

    @Test("when the audio side says stop, splitting stops")
    func stops() {
        var demuxer = ICYDemuxer(interval: 10)
        let going = [UInt8](repeating: 1, count: 30).withUnsafeBytes { bytes in
            demuxer.split(bytes, audio: { _ in false }, title: { _ in })
        }
        #expect(!going)
    }
}

@Suite struct StreamTitleTests {
    @Test("a station's 'Artist - Title' is the two; a title without ' - ' is all title; only the first ' - ' parts")
    func split() {
        #expect(
            StreamTitle("Daft Punk - Around the World") == StreamTitle(artist: "Daft Punk", title: "Around the World"))
        #expect(StreamTitle("News at Nine") == StreamTitle(artist: nil, title: "News at Nine"))
        #expect(StreamTitle("A - B - C") == StreamTitle(artist: "A", title: "B - C"))
        #expect(StreamTitle("Björk-Jóga") == StreamTitle(artist: nil, title: "Björk-Jóga"))
    }
}
