import PlaybackDaemon
import Testing

@Suite struct TOMLReaderTests {
    private func entries(_ text: String) throws -> [String: TOMLValue] {
        Dictionary(uniqueKeysWithValues: try TOMLReader.entries(of: text).map { ($0.key, $0.value) })
    }

    @Test("TOML 1.0 values: strings of four kinds, integers in four bases, floats, booleans, arrays")
    func values() throws {
        let text = """
            \u{FEFF}# a comment\r
            basic = "tab\\there \\"q\\" \\u00C6\\U0001F3B5 \\\\"  # trailing comment
            literal = 'C:\\Users\\me'
            "quoted key" = 1
            'single' = -0
            multi = \"\"\"
            one \\
                two
            three\"\"\"\"
            raw = '''
            a\\b'''
            ints = [ +17, 1_000, 0xDEAD_beef, 0o755, 0b1101 ]
            floats = [3.1415, -0.01, 5e+22, 1E6, 6.626e-34, 9_224.617_445, -inf, nan,]
            yes = true
            no = false
            nested = [ [ 1, 2 ], [ "a",
              # a comment inside
              "b" ] ]
            empty = []
            when = 1979-05-27 07:32:00Z
            at = 07:32:00
            point = { x = 1, y = { z = "2" } }
            dotted.key = 1
            dotted . other = 2
            [table]
            basic = "not top-level"
            [[list]]
            a = 1
            [[list]]
            a = 2
            """
        let values = try entries(text)
        #expect(values["basic"] == .string("tab\there \"q\" \u{C6}\u{1F3B5} \\"))
        #expect(values["literal"] == .string("C:\\Users\\me"))
        #expect(values["quoted key"] == .integer(1))
        #expect(values["single"] == .integer(0))
        #expect(values["multi"] == .string("one two\nthree\""))
        #expect(values["raw"] == .string("a\\b"))
        #expect(values["ints"] == .array([17, 1000, 0xDEAD_BEEF, 0o755, 0b1101].map { .integer($0) }))
        guard case .array(let floats) = values["floats"], floats.count == 8 else {
            Issue.record("floats: \(String(describing: values["floats"]))")
            return
        }
        #expect(
            Array(floats.prefix(7))
                == [3.1415, -0.01, 5e22, 1e6, 6.626e-34, 9224.617445, -.infinity].map { .float($0) })
        if case .float(let value) = floats[7] { #expect(value.isNaN) } else { Issue.record("nan: \(floats[7])") }
        #expect(values["yes"] == .boolean(true) && values["no"] == .boolean(false))
        #expect(
            values["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b")])]))
        #expect(values["empty"] == .array([]))
        #expect(values["when"] == .dateTime("1979-05-27 07:32:00Z") && values["at"] == .dateTime("07:32:00"))
        #expect(values["point"] == .table && values["dotted"] == .table && values["table"] == .table)
        #expect(values["list"] == .table)
        #expect(values.count == 18, "\(values.keys.sorted())")
        let lines = try TOMLReader.entries(of: text).map { "\($0.key):\($0.line)" }
        #expect(lines.prefix(5) == ["basic:2", "literal:3", "quoted key:4", "single:5", "multi:6"])
        #expect(lines.contains("ints:12") && lines.contains("table:25"))
    }

    @Test(
        "a text that is not TOML is an error naming its line",
        arguments: [
            ("device = \n", 1, "a value is missing"),
            ("a = 1\nb = 'open\n", 2, "not closed"),
            ("a = \"\\q\"", 1, "not an escape"),
            ("a = \"\\uD800\"", 1, "Unicode scalar"),
            ("a = 1 2", 1, "one per line"),
            ("a = 1\na = 2", 2, "defined twice"),
            ("[t]\n[t]", 2, "defined twice"),
            ("a = 1\na.b = 2", 2, "a value and a table"),
            ("a = 01", 1, "not a TOML value"),
            ("a = 1__0", 1, "not a TOML value"),
            ("a = 1.", 1, "not a TOML value"),
            ("a = .5", 1, "not a TOML value"),
            ("a = +0x10", 1, "not a TOML value"),
            ("a = bare", 1, "needs quotes"),
            ("a = [1,,2]", 1, "a value"),
            ("a = [1\n\n", 3, "not closed"),
            ("a = { b = 1,\n}", 1, "a key"),
            ("a = \"\u{7}\"", 1, "control character"),
            ("\n\na = 1\r", 3, "carriage return"),
            ("= 1", 1, "expected a key"),
            ("a 1", 1, "expected ="),
            ("[# playbackd configuration\ndevice = \"x\"", 1, "expected a key"),
            (String(repeating: "a = [", count: 1) + String(repeating: "[", count: 100), 1, "nested more than 64"),
        ])
    func errors(text: String, line: Int, message: String) {
        do {
            let entries = try TOMLReader.entries(of: text)
            Issue.record("read \(entries) from \(text.debugDescription)")
        } catch {
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            #expect(error.message.contains(message), "\(text.debugDescription): \(error)")
        }
    }

    @Test("the settings file: values reach their settings; tables, dates and unknown keys are named errors")
    func settingsFile() throws {
        var settings = DaemonSettings()
        try ConfigurationFile.apply(
            "device = 'pulse'\nskip-forward-interval = 30\ndisable = [\"play\"]\n", path: "c.toml", to: &settings)
        #expect(settings.device == "pulse" && settings.disabled == [.play])
        let cases: [(String, Int, String)] = [
            ("\n[device]\nname = 'x'", 2, "device: expected"),
            ("device = 1979-05-27", 1, "a date or time"),
            ("# c\ndevise = 'x'", 2, "devise: unknown setting"),
            ("disable = ['play', 1]", 1, "an array with a number in it"),
            ("device = 'x'\ndevice = 'y'", 2, "not valid TOML"),
        ]
        for (text, line, message) in cases {
            var copy = DaemonSettings()
            do {
                try ConfigurationFile.apply(text, path: "c.toml", to: &copy)
                Issue.record("accepted \(text.debugDescription)")
            } catch {
                #expect(error.line == line, "\(text.debugDescription): \(error)")
                #expect("\(error)".contains(message), "\(text.debugDescription): \(error)")
            }
        }
    }
}
