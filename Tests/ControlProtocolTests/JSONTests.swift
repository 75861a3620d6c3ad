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

    @Test("numbers read exactly as strtod reads them, the short ones included")
    func numbersAsStrtod() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "1", "44100", "1.044898", "0.5", "-6.2", "1e22", "1e23", "9007199254740993", "0.1e-22",
            "123456789012345678901234567890", "4.9406564584124654e-324", "2.2250738585072014e-308", "1E+2",
            "0.000001", "17976931348623157e292", "9007199254740992.5", "1.7976931348623157e308",
        ]
        for _ in 0..<5_000 {
            let digits = (0..<Int.random(in: 1...20, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }.joined()
            let whole = digits.first == "0" && digits.count > 1 ? "1" + digits : digits
            let point = Int.random(in: 0...whole.count, using: &generator)
            var text = point == whole.count ? whole : whole.prefix(point) + "." + whole.dropFirst(point)
            if text.hasPrefix(".") { text = "0" + text }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            texts.append(Bool.random(using: &generator) ? "-" + text : text)
        }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            let parsed = try JSONParser.parse(Array(text.utf8)).numberValue
            #expect(parsed?.bitPattern == expected.bitPattern, "\(text): \(String(describing: parsed)) not \(expected)")
        }
    }

    @Test(
        "an unfinished object or array names the byte it expected, where it expected it",
        arguments: [("{\"a\":1 2}", 7, "expected ',' or '}'"), ("[1 2]", 3, "expected ',' or ']'")])
    func unfinishedContainer(_ text: String, offset: Int, reason: String) {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(text.utf8)) }
        #expect(error?.reason == reason)
        #expect(error?.offset == offset)
    }

    @Test("empty containers, and depth counted back down as each container closes")
    func containersClose() throws {
        #expect(try JSONParser.parse(Array("{ }".utf8)) == .object([]))
        #expect(try JSONParser.parse(Array("[ ]".utf8)) == .array([]))
        // 64 siblings, each reaching depth 64: only nesting counts, not the containers before.
        let nested = String(repeating: "[", count: 62) + "{}" + String(repeating: "]", count: 62)
        let siblings = "[" + Array(repeating: nested, count: 64).joined(separator: ",") + "]"
        #expect(throws: Never.self) { try JSONParser.parse(Array(siblings.utf8)) }
    }

    @Test("nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8)) }
    }
}
