import SystemSupport
import Testing

/// The byte search the programs use instead of `_StringProcessing`'s (SystemSupport).
struct StringSearchTests {
    @Test("a needle is found where it first occurs, after a false start, in a substring, or not at all")
    func ranges() {
        let text = "Zoë aaab: pcm=3 Jack"
        func found(_ needle: String, in haystack: Substring) -> String? {
            haystack.range(ofBytes: needle).map {
                String(haystack[$0]) + "@" + String(haystack[..<$0.lowerBound].count)
            }
        }
        #expect(found("aab", in: text[...]) == "aab@5", "after the false start at \"aaa\"")
        #expect(found("Zoë", in: text[...]) == "Zoë@0")
        #expect(found("Jack", in: text[...]) == "Jack@16", "at the very end")
        #expect(found("pcm=", in: text.dropFirst(4)) == "pcm=@6", "a substring's own indices")
        #expect(found("Jacks", in: text[...]) == nil, "running past the end")
        #expect(found("ë", in: "Zoe\u{301}"[...]) == nil, "bytes, not canonical equivalence")
        #expect(text.contains(bytes: " pcm=") && !text.contains(bytes: "PCM"))
        #expect(text.range(ofBytes: "") == text.startIndex..<text.startIndex)
    }

    @Test("every occurrence is replaced, left to right, once")
    func substitutions() {
        #expect("%{F#0f0}%{F-}".substituting("%{", with: "%%{") == "%%{F#0f0}%%{F-}")
        #expect("it's a 'test'".substituting("'", with: "'\\''") == "it'\\''s a '\\''test'\\''")
        #expect("aaaa".substituting("aa", with: "b") == "bb")
        #expect("a|b||c".substituting("|", with: "\\|") == "a\\|b\\|\\|c")
        #expect("nothing here".substituting("x", with: "y") == "nothing here")
        #expect("".substituting("x", with: "y") == "")
    }

    @Test("a prefix or suffix is matched by its bytes, with no grapheme-boundary check")
    func ends() {
        #expect("/music/a.mp3".hasPrefix(bytes: "/") && "/music/a.mp3".hasSuffix(bytes: ".mp3"))
        #expect(!"music/a.mp3".hasPrefix(bytes: "/") && !"/music/a.mp3".hasSuffix(bytes: ".MP3"))
        #expect("/\u{301}x".hasPrefix(bytes: "/"), "a combining mark after the slash")
        #expect(!"/\u{301}x".hasPrefix("/"), "where hasPrefix(_:) says no")
        #expect("e\u{301}".hasSuffix(bytes: "\u{301}") && !"e\u{301}".hasSuffix(bytes: "e"))
        #expect("ab".hasPrefix(bytes: "") && "ab".hasSuffix(bytes: ""))
        #expect(!"a".hasPrefix(bytes: "ab") && !"b".hasSuffix(bytes: "ab"), "longer than the string")
        #expect("--volume=5".dropFirst(2).hasPrefix(bytes: "volume"), "a substring's own bytes")
    }
}
