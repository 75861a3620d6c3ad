/// Named equalizer curves: the built-in ones here, and those a user saves as parametric EQ
/// text (`NAME.txt` under `$XDG_CONFIG_HOME/playbackd/eq/`), which win over a built-in of the
/// same name.
public enum EqualizerPreset {
    /// The built-in curves, on the ten one-octave bands (32 Hz - 16 kHz).
    public static let builtIn: [(name: String, equalizer: Equalizer)] = [
        ("flat", tenBand([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
        ("bass-boost", tenBand([6, 5, 4, 2, 0, 0, 0, 0, 0, 0])),
        ("speech", tenBand([-9, -7, -4, -1, 0, 2, 3, 3, 1, -2])),
        ("loudness", tenBand([6, 4, 2, 0, -1, -1, 0, 1, 3, 4])),
        ("warm", tenBand([3, 3, 3, 2, 0, -6, -6, -6, -6, -6])),
    ]

    /// The built-in curve called `name`.
    public static func builtIn(_ name: String) -> Equalizer? {
        builtIn.first { $0.name == name }?.equalizer
    }

    /// Why `name` cannot name a preset file; nil when it can: 1 - 64 letters, digits, `-`, `_`
    /// or `.`, not starting with `.`.
    public static func problem(withName name: String) -> String? {
        let allowed = name.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        guard !name.isEmpty, name.utf8.count <= 64, allowed, !name.hasPrefix(".") else {
            return "'\(name)' is not a preset name (1 - 64 letters, digits, '-', '_' or '.', not starting with '.')"
        }
        return nil
    }

    /// Ten parametric one-octave bands (32 Hz - 16 kHz) with these gains.
    public static func tenBand(_ gains: [Double]) -> Equalizer {
        Equalizer(
            isEnabled: true,
            bands: zip(Equalizer.tenBandFrequencies, gains).map { EQBand(type: .parametric, frequency: $0, gain: $1) })
    }
}
