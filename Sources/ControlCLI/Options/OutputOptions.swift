/// How `status` and `watch` print: the format and its width and offline text, from the
/// verb's options.
public struct OutputOptions: Equatable {
    public var format: SnapshotFormat
    public var maxWidth: Int?
    public var offlineText = ""

    init(format: SnapshotFormat, maxWidth: Int? = nil) {
        self.format = format
        self.maxWidth = maxWidth
    }

    /// Checks the combination and parses the templates; errors name the option.
    init(options: [(CLIOption, String)], json: Bool) throws(UsageError) {
        var formatSource: String?
        var tooltipSource: String?
        var bar: CLIOption?
        var maxWidth: Int?
        var offline = ""
        for (option, value) in options {
            switch option.name {
            case CLIOptions.format.name: formatSource = value
            case CLIOptions.tooltip.name: tooltipSource = value
            case CLIOptions.offline.name: offline = value
            case CLIOptions.maxWidth.name:
                guard let width = Int(value), width > 0 else {
                    throw UsageError("--max-width needs a positive whole number, not '\(value)'")
                }
                maxWidth = width
            default:
                if let other = bar, other.name != option.name {
                    throw UsageError("--\(other.name) and --\(option.name) cannot be combined")
                }
                bar = option
            }
        }
        if json, let conflicting = bar?.name ?? formatSource.map({ _ in CLIOptions.format.name }) {
            throw UsageError("--json and --\(conflicting) cannot be combined")
        }
        if tooltipSource != nil && bar?.name != CLIOptions.waybar.name {
            throw UsageError("--tooltip needs --waybar")
        }
        // Parsed only where it is used: plain `status` prints neither template (parsing the
        // default one cost it an eighth of its instructions).
        func text() throws(UsageError) -> Template {
            try Self.template(formatSource ?? SnapshotFormat.Defaults.text, option: CLIOptions.format)
        }
        switch bar?.name {
        case CLIOptions.waybar.name?:
            let text = try text()
            let tooltip = try Self.template(
                tooltipSource ?? SnapshotFormat.Defaults.tooltip, option: CLIOptions.tooltip)
            format = .waybar(text: text, tooltip: tooltip)
        case CLIOptions.i3blocks.name?:
            format = .i3blocks(try text())
        case CLIOptions.polybar.name?:
            format = .polybar(try text())
        default:
            format = json ? .json : formatSource == nil ? .human : .template(try text())
        }
        self.maxWidth = maxWidth
        self.offlineText = offline
    }

    private static func template(_ source: String, option: CLIOption) throws(UsageError) -> Template {
        do {
            return try Template(source)
        } catch {
            throw UsageError("--\(option.name): \(error)")
        }
    }
}
