/// Times written as a clock shows them, as people type them and as tags store them: `90`,
/// `1:30`, `1:02:03`, `00:00:03.250`.
public enum ClockTime {
    /// Seconds, `M:SS` or `H:MM:SS` (fractions allowed in the last field; minutes and seconds
    /// after the first field below 60) as seconds; nil for anything else.
    public static func seconds(_ text: some StringProtocol) -> Double? {
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
}
