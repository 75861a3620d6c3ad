/// Times as people type and read them: `90`, `1:30`, `1:02:03`, `12.5`.
public enum TimeText {
    /// Parses seconds, `M:SS` or `H:MM:SS` (fractions allowed in the last field).
    public static func parse(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let value = Double(field), value.isFinite
            else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// `M:SS` below an hour, `H:MM:SS` from an hour on; negative and non-finite values read as 0.
    public static func format(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let ss = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(ss)" }
        return "\(minutes):\(ss)"
    }
}
