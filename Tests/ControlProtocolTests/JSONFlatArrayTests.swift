import ControlProtocol
import Testing

/// `JSONParser.readFlatArray`: what it hands over is what `parse` reads, and anything it does
/// not take (which `parse` then reads, or refuses) it refuses whole.
@Suite struct JSONFlatArrayTests {
    /// The elements as `JSONValue`s, or nil when refused.
    private static func read(_ text: [UInt8]) -> [JSONValue]? {
        var elements: [JSONValue] = []
        let taken = text.withUnsafeBufferPointer { bytes in
            JSONParser.readFlatArray(bytes) { scalar in
                switch scalar {
                case .string(let utf8): elements.append(.string(String(decoding: utf8, as: UTF8.self)))
                case .number(let number): elements.append(.number(number))
                case .null: elements.append(.null)
                }
                return true
            }
        }
        return taken ? elements : nil
    }

    @Test(
        "strings, numbers and nulls come out as parse reads them",
        arguments: [
            #"["/m/a b.mp3","Tïtle — ω",null,0.18734693877551021,-0,4.41e4,1e-7,12345678901234567890]"#,
            #" [ "x" , 1 ,null ] "#, "[]", #"[""]"#, #"["日本語の題名",-12.5]"#,
        ])
    func sameAsParse(_ text: String) throws {
        let expected = try JSONParser.parse(Array(text.utf8))
        #expect(Self.read(Array(text.utf8)).map(JSONValue.array) == expected)
    }

    @Test(
        "refused: escapes, other values, broken JSON and invalid UTF-8",
        arguments: [
            #"["a\"b"]"#, #"["\/m"]"#, #"[true]"#, #"[["x"]]"#, #"[{"a":1}]"#, #"["x",]"#, #"["x""#, #"["x"] x"#,
            #"{"a":1}"#, #""x""#, "[01]", "[1.]", "[nul]", "[\"tab\there\"]", "",
        ])
    func refused(_ text: String) {
        #expect(Self.read(Array(text.utf8)) == nil)
    }

    @Test("invalid UTF-8 in a string is refused, as parse refuses it")
    func invalidUTF8() {
        let text: [UInt8] = Array(#"[""#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8)
        #expect(Self.read(text) == nil)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("the reader stops at the first element it is refused")
    func stopsWhenRefused() {
        var seen = 0
        let taken = Array(#"[1,2,3]"#.utf8).withUnsafeBufferPointer { bytes in
            JSONParser.readFlatArray(bytes) { _ in
                seen += 1
                return seen < 2
            }
        }
        #expect(!taken && seen == 2)
    }
}
