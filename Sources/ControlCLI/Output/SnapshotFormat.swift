import ControlProtocol

/// How `status` and `watch` print a snapshot: the human layout, a template, a status bar's
/// protocol, or the raw JSON.
public enum SnapshotFormat: Equatable {
    case human
    case template(Template)
    /// waybar `custom` module, `return-type: json`: text and tooltip are Pango markup.
    case waybar(text: Template, tooltip: Template)
    /// i3blocks `interval=persist` in its plain-text form: each line is the block's
    /// `full_text`. Not `format=json`: i3blocks 1.4's own JSON reader cuts a text at an escaped
    /// quote and doubles backslashes (its issue #163), while plain text reaches i3bar intact.
    case i3blocks(Template)
    /// polybar `custom/script` with `tail = true`.
    case polybar(Template)
    case json

    /// Whether the output changes while playing without a pushed change, so `watch` prints it
    /// again at each second boundary of the position.
    public var followsPosition: Bool {
        switch self {
        case .human: true
        case .template(let template), .polybar(let template): template.followsPosition
        case .waybar(let text, let tooltip): text.followsPosition || tooltip.followsPosition
        case .i3blocks(let template): template.followsPosition
        case .json: false
        }
    }

    /// One line (without the newline) for the snapshot at `view`'s instant.
    public func line(_ view: SnapshotView, maxWidth: Int?) -> String {
        switch self {
        case .human:
            return HumanOutput.status(view.nowPlaying, now: view.now).split(separator: "\n").joined(separator: " | ")
        case .template(let template):
            return template.line(view, maxWidth: maxWidth)
        case .polybar(let template):
            return template.line(view, maxWidth: maxWidth, escaping: .polybar)
        case .i3blocks(let template):
            return template.line(view, maxWidth: maxWidth)
        case .waybar(let text, let tooltip):
            var percent = 0.0
            if case .number(let value)? = TemplateField.percent.value(in: view) { percent = value }
            return JSONValue.object([
                ("text", .string(text.line(view, maxWidth: maxWidth, escaping: .pango))),
                ("alt", .string(view.state)),
                ("tooltip", .string(tooltip.line(view, escaping: .pango))),
                ("class", .string(view.state)),
                ("percentage", .number(percent)),
            ]).serialized
        case .json:
            return view.raw.serialized
        }
    }

    /// The line `watch` prints while the daemon cannot be reached: `text` in the bar's form,
    /// with the class or state `offline`.
    public func offlineLine(_ text: String) -> String {
        switch self {
        case .human, .template, .polybar, .i3blocks:
            return RenderedPiece.singleLine(text)
        case .waybar:
            return JSONValue.object([
                ("text", .string(text)), ("alt", .string("offline")), ("tooltip", .string("playbackd is not running")),
                ("class", .string("offline")), ("percentage", .number(0)),
            ]).serialized
        case .json:
            return JSONValue.object([("state", .string("offline"))]).serialized
        }
    }
}

extension SnapshotFormat {
    /// The templates each bar mode uses unless `--format` (and `--tooltip`) name others.
    public enum Defaults {
        public static let text = "{{artist|suffix:\" - \"}}{{title}}"
        public static let tooltip =
            "{{artist|suffix:\" - \"}}{{title}}{{album|prefix:\"\\n\"}}{{duration|time|prefix:\"\\n\"}}"
    }
}
