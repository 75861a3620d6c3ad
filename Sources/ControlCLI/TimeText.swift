import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

/// Times as people type and read them: `90`, `1:30`, `1:02:03`, `12.5`.
public enum TimeText {
    /// Parses seconds, `M:SS` or `H:MM:SS` (fractions allowed in the last field).
    public static func parse(_ text: String) -> Double? { ClockTime.seconds(text) }

    /// A duration with units, as `sleep` takes it: `30m`, `45s`, `1h30m`, `1h 5m 10s`, `7d`, or
    /// what `parse` reads (`90`, `1:30:00`); nil otherwise.
    public static func duration(_ text: String) -> Double? {
        if let plain = parse(text) { return plain }
        var total = 0.0
        var number = ""
        var units = 0
        for character in text where character != " " {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
                continue
            }
            let scale: Double
            switch character {
            case "d": scale = 86400
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            default: return nil
            }
            guard let value = Double(number), value.isFinite else { return nil }
            total += value * scale
            number = ""
            units += 1
        }
        guard number.isEmpty, units > 0 else { return nil }
        return total
    }

    /// `2026-11-26 10:05` in local time, from seconds since the epoch.
    public static func date(_ seconds: Double) -> String {
        var time = time_t(seconds.isFinite ? seconds : 0)
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// `M:SS` below an hour, `H:MM:SS` from an hour on; negative and non-finite values read as 0.
    public static func format(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let ss = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(ss)" }
        return "\(minutes):\(ss)"
    }

    /// `format` with hundredths: `1:02.45` (phrases are shorter than a second apart).
    public static func precise(_ seconds: Double) -> String {
        let (whole, fraction) = hundredths(seconds)
        return format(Double(whole)) + "." + fraction
    }

    /// Seconds with hundredths: `1.81`.
    public static func decimal(_ seconds: Double) -> String {
        let (whole, fraction) = hundredths(seconds)
        return "\(whole).\(fraction)"
    }

    /// Whole seconds and the two digits of hundredths, rounded.
    private static func hundredths(_ seconds: Double) -> (Int, String) {
        let hundredths = seconds.isFinite ? max(0, Int((seconds * 100).rounded())) : 0
        let fraction = hundredths % 100
        return (hundredths / 100, fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }
}
