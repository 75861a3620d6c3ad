/// A line of a parametric EQ text that could not be read.
public struct ParametricEQError: Error, Equatable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// The parametric EQ text of AutoEq's `ParametricEQ.txt`, which Equalizer APO, EasyEffects
/// and Wavelet read:
///
///     Preamp: -6.2 dB
///     Filter 1: ON PK Fc 105 Hz Gain -2.3 dB Q 0.70
///     Filter 2: ON LSC Fc 105 Hz Gain 5.5 dB Q 0.71
///
/// Filter types: `PK`/`PEQ` (peaking), `LSC`/`LS` and `HSC`/`HS` (shelves), `LP`/`LPQ`,
/// `HP`/`HPQ`, `BP` (band pass), `NO` (notch); widths as `Q q` or `BW Oct n`. Presets are saved
/// in the same form, so a file written here loads anywhere that reads AutoEq's.
public enum ParametricEQText {
    /// The equalizer a text describes (enabled, global gain 0); the first unreadable line is
    /// an error that names it.
    public static func parse(_ text: String) throws(ParametricEQError) -> Equalizer {
        var equalizer = Equalizer(isEnabled: true, bands: [])
        var sawPreamp = false
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let content = rawLine.prefix { $0 != "#" }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let first = words.first else { continue }
            switch first.lowercased() {
            case "preamp:":
                if sawPreamp { throw ParametricEQError(line: line, "a second Preamp line") }
                sawPreamp = true
                equalizer.preamp = try decibels(words.dropFirst(), line: line, what: "Preamp")
            case "filter:", "filter":
                var rest = words.dropFirst()
                if first.lowercased() == "filter" {
                    // `Filter 3:` - the number is only a label.
                    guard let label = rest.popFirst(), label.hasSuffix(":"), Int(label.dropLast()) != nil else {
                        throw ParametricEQError(line: line, "expected 'Filter N:'")
                    }
                }
                guard equalizer.bands.count < Equalizer.maximumBands else {
                    throw ParametricEQError(line: line, "more than \(Equalizer.maximumBands) filters")
                }
                equalizer.bands.append(try filter(rest, line: line))
            default:
                throw ParametricEQError(
                    line: line, "'\(first)' is not supported (only 'Preamp:' and 'Filter N:' lines)")
            }
        }
        guard !equalizer.bands.isEmpty || sawPreamp else {
            throw ParametricEQError(line: 1, "no Preamp or Filter lines")
        }
        return equalizer
    }

    /// The text of `equalizer`: its preamp and global gain as one `Preamp:`, then one line per
    /// band.
    public static func format(_ equalizer: Equalizer) -> String {
        var lines = ["Preamp: \(number(equalizer.preamp + equalizer.globalGain)) dB"]
        for (index, band) in equalizer.bands.enumerated() {
            var words = [
                "Filter \(index + 1):", band.bypass ? "OFF" : "ON", code(band), "Fc", number(band.frequency), "Hz",
            ]
            if band.type.usesGain { words += ["Gain", number(band.gain), "dB"] }
            if usesWidth(band.type) {
                words += band.q.map { ["Q", number($0)] } ?? ["BW", "Oct", number(band.bandwidth)]
            }
            lines.append(words.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func filter(_ words: ArraySlice<String>, line: Int) throws(ParametricEQError) -> EQBand {
        var rest = words
        guard let state = rest.popFirst()?.uppercased(), state == "ON" || state == "OFF" else {
            throw ParametricEQError(line: line, "expected ON or OFF after 'Filter N:'")
        }
        guard let code = rest.popFirst() else { throw ParametricEQError(line: line, "missing the filter type") }
        var frequency: Double?
        var gain: Double?
        var q: Double?
        var octaves: Double?
        while let key = rest.popFirst() {
            switch key.lowercased() {
            case "fc":
                frequency = try value(&rest, line: line, key: "Fc", unit: "hz")
            case "gain":
                gain = try value(&rest, line: line, key: "Gain", unit: "db")
            case "q":
                q = try value(&rest, line: line, key: "Q", unit: nil)
            case "bw":
                guard rest.popFirst()?.lowercased() == "oct" else {
                    throw ParametricEQError(line: line, "only 'BW Oct n' widths are supported")
                }
                octaves = try value(&rest, line: line, key: "BW Oct", unit: nil)
            default:
                throw ParametricEQError(line: line, "unexpected '\(key)'")
            }
        }
        guard let frequency else { throw ParametricEQError(line: line, "missing 'Fc'") }
        guard let type = filterType(code.uppercased(), hasWidth: q != nil || octaves != nil) else {
            throw ParametricEQError(line: line, "unknown filter type '\(code)' (PK, LSC, HSC, LP, HP, BP, NO)")
        }
        if type.usesGain && gain == nil { throw ParametricEQError(line: line, "\(code) needs 'Gain'") }
        let band = EQBand(
            type: type, frequency: frequency, bandwidth: octaves ?? 1, q: q, gain: gain ?? 0, bypass: state == "OFF")
        if let problem = band.problem { throw ParametricEQError(line: line, problem) }
        return band
    }

    /// The type of a filter code; shelves and passes given a width are the resonant variants.
    private static func filterType(_ code: String, hasWidth: Bool) -> EQFilterType? {
        switch code {
        case "PK", "PEQ": .parametric
        case "LSC", "LS": hasWidth ? .resonantLowShelf : .lowShelf
        case "HSC", "HS": hasWidth ? .resonantHighShelf : .highShelf
        case "LP": hasWidth ? .resonantLowPass : .lowPass
        case "LPQ": .resonantLowPass
        case "HP": hasWidth ? .resonantHighPass : .highPass
        case "HPQ": .resonantHighPass
        case "BP": .bandPass
        case "NO": .bandStop
        default: nil
        }
    }

    private static func code(_ band: EQBand) -> String {
        switch band.type {
        case .parametric: "PK"
        case .lowShelf, .resonantLowShelf: "LSC"
        case .highShelf, .resonantHighShelf: "HSC"
        case .lowPass: "LP"
        case .resonantLowPass: "LPQ"
        case .highPass: "HP"
        case .resonantHighPass: "HPQ"
        case .bandPass: "BP"
        case .bandStop: "NO"
        }
    }

    private static func usesWidth(_ type: EQFilterType) -> Bool {
        ![.lowShelf, .highShelf, .lowPass, .highPass].contains(type)
    }

    private static func decibels(_ words: ArraySlice<String>, line: Int, what: String) throws(ParametricEQError)
        -> Double
    {
        var rest = words
        let gain = try value(&rest, line: line, key: what, unit: "db")
        if let extra = rest.first { throw ParametricEQError(line: line, "unexpected '\(extra)'") }
        return gain
    }

    /// The number after `key`, and its unit when one follows.
    private static func value(_ rest: inout ArraySlice<String>, line: Int, key: String, unit: String?)
        throws(ParametricEQError) -> Double
    {
        guard let word = rest.popFirst() else { throw ParametricEQError(line: line, "missing the value of '\(key)'") }
        guard let number = Double(word), number.isFinite else {
            throw ParametricEQError(line: line, "'\(word)' is not a number (after '\(key)')")
        }
        if let unit, rest.first?.lowercased() == unit { rest.removeFirst() }
        return number
    }

    /// A number as short as it reads exactly: `105`, `-2.3`, `0.707`.
    private static func number(_ value: Double) -> String {
        let rounded = (value * 1e6).rounded() / 1e6
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
