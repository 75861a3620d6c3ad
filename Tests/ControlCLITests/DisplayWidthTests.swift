import ControlCLI
import Testing

@Suite struct DisplayWidthTests {
    /// Each character's width added up: what a text's width must equal, whichever way it is counted.
    static func characterSum(_ text: String) -> Int { text.reduce(0) { $0 + DisplayWidth.of($1) } }

    @Test("ASCII is one column a character, control characters none, CR LF included")
    func ascii() {
        #expect(DisplayWidth.of("Rainy Days - Artist (3:07 / 4:12)") == 33)
        #expect(DisplayWidth.of("a\tb\r\nc\u{7}") == 3)
        #expect(DisplayWidth.of("") == 0)
        let everyASCII = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(DisplayWidth.of(everyASCII) == 96)
        #expect(DisplayWidth.of(everyASCII) == Self.characterSum(everyASCII))
    }

    @Test("wide East Asian characters and emoji take two columns, combining marks none")
    func wide() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("ok 🎵") == 5)
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        for text in ["Ärger über 日本 🎵 x", "caf\u{E9} #1\u{FE0F}\u{20E3}", "\u{1100}\u{1161}abc"] {
            #expect(DisplayWidth.of(text) == Self.characterSum(text), "\(text)")
        }
    }

    @Test("a text cut to fit ends in an ellipsis within the columns; one that fits is kept whole")
    func fit() {
        #expect(DisplayWidth.fit("short", columns: 10) == "short")
        #expect(DisplayWidth.fit("a longer title", columns: 8) == "a longe…")
        let cut = DisplayWidth.fit("日本語のタイトル", columns: 7)
        #expect(cut == "日本語…")
        #expect(DisplayWidth.of(cut) <= 7)
    }
}
