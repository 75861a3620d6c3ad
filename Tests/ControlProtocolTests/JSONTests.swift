import ControlProtocol
import Testing

@Suite struct JSONTests {
    @Test("parse and serialize round-trip, keeping key order")
    func roundTrip() throws {
        let text = #"{"id":7,"command":"enqueue","items":["/a b.mp3","/ü/ß.mp3"],"play":true,"x":null,"f":-1.5e-3}"#
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(
            value.serialized
                == #"{"id":7,"command":"enqueue","items":["/a b.mp3","/ü/ß.mp3"],"play":true,"x":null,"f":-0.0015}"#)
        #expect(try JSONParser.parse(Array(value.serialized.utf8)) == value)
    }

    @Test("string escapes, including surrogate pairs and control characters")
    func escapes() throws {
        let value = try JSONParser.parse(Array(#""a\"b\\c\n\t\u00e9\ud83c\udfb5\/""#.utf8))
        #expect(value == .string("a\"b\\c\n\té🎵/"))
        #expect(JSONValue.string("q\"\\\n\u{01}\u{2028}").serialized == #""q\"\\\n\u0001\u2028""#)
    }

    @Test("integers serialize without a fraction, others exactly")
    func numbers() {
        #expect(JSONValue.number(15).serialized == "15")
        #expect(JSONValue.number(-3).serialized == "-3")
        #expect(JSONValue.number(0.1).serialized == "0.1")
        #expect(JSONValue.number(1e300).serialized == "1e+300")
        #expect(JSONValue.number(0).serialized == "0")
        #expect(JSONValue.number(-0.0).serialized == "0")
        #expect(JSONValue.number(9_007_199_254_740_991).serialized == "9007199254740991")
        #expect(JSONValue.number(-9_007_199_254_740_991).serialized == "-9007199254740991")
        #expect(JSONValue.array([.number(10), .number(-1), .number(1_000_000)]).serialized == "[10,-1,1000000]")
    }

    @Test(
        "malformed texts are rejected with a position",
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"abc", "\"\\x\"", "\"\\ud800\"", "{\"a\":1}x",
            "\"a\u{01}\"", "1e999",
        ])
    func malformed(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 inside a string is an error, not a silent U+FFFD")
    func invalidUTF8() {
        let bytes: [UInt8] = Array(#"{"path":"/music/"#.utf8) + [0xC3, 0x28] + Array(#".mp3"}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        #expect(throws: Never.self) { try JSONParser.parse(Array(#"{"path":"/music/Café.mp3"}"#.utf8)) }
    }

    @Test("a number that is not finite is written as null, so every line stays valid JSON")
    func nonFiniteNumbers() throws {
        let value = JSONValue.object([
            ("nan", .number(.nan)), ("up", .number(.infinity)), ("down", .number(-.infinity)), ("ok", .number(1.5)),
        ])
        #expect(value.serialized == #"{"nan":null,"up":null,"down":null,"ok":1.5}"#)
        #expect(try JSONParser.parse(Array(value.serialized.utf8))["ok"] == .number(1.5))
    }

    @Test("nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8)) }
    }
}
