import ControlProtocol
import PlaybackModel

extension HumanOutput {
    /// Half the width of a band's gain bar, in characters; one character is `barStep` dB.
    static let barHalfWidth = 12
    static let barStep = 1.5

    /// The equalizer (the `equalizer` reply, or a changed curve) as a table: the state, then one
    /// line per band with its gain as a bar around 0 dB, then the presets when listed.
    ///
    ///     equalizer on  preamp 0 dB  global 0 dB  preset warm
    ///      1  parametric          32 Hz  1 oct     +3.0 dB             |##
    static func equalizer(_ equalizer: Equalizer, presets: [String]?) -> String {
        var header = "equalizer \(equalizer.isEnabled ? "on" : "off")  preamp \(decibels(equalizer.preamp))"
        header += "  global \(decibels(equalizer.globalGain))"
        if let preset = equalizer.preset { header += "  preset \(preset)" }
        var lines = [header]
        for (index, band) in equalizer.bands.enumerated() {
            let number = pad(String(index + 1), 2, right: true)
            let width = band.q.map { "Q \(short($0))" } ?? "\(short(band.bandwidth)) oct"
            let gain = band.type.usesGain ? pad(signed(band.gain) + " dB", 9, right: true) : pad("", 9)
            var line = "\(number)  \(pad(band.type.rawValue, 18)) \(pad(hertz(band.frequency), 9, right: true))"
            line += "  \(pad(width, 8)) \(gain)  "
            line += band.bypass ? "(bypassed)" : band.type.usesGain ? bar(band.gain) : ""
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        if let presets {
            lines.append("presets: " + presets.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `      ###|` for a cut, `|###` for a boost, one `#` per `barStep` dB.
    static func bar(_ gain: Double) -> String {
        let steps = min(barHalfWidth, Int((abs(gain) / barStep).rounded()))
        let marks = String(repeating: "#", count: steps)
        return gain < 0
            ? String(repeating: " ", count: barHalfWidth - steps) + marks + "|"
            : String(repeating: " ", count: barHalfWidth) + "|" + marks
    }

    private static func hertz(_ frequency: Double) -> String {
        frequency >= 1000 ? "\(short(frequency / 1000)) kHz" : "\(short(frequency)) Hz"
    }

    private static func decibels(_ value: Double) -> String { "\(short(value)) dB" }

    /// `+3.0`, `-4.5`: one decimal, always signed.
    private static func signed(_ value: Double) -> String {
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "+") + "\(tenths / 10).\(tenths % 10)"
    }

    /// Up to two decimals, no trailing zeros: `1`, `0.71`, `1.5`.
    private static func short(_ value: Double) -> String { JSONValue.number((value * 100).rounded() / 100).serialized }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
