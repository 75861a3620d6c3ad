import ControlProtocol

/// A filter that turns a placeholder's value into text, declared once with what it accepts.
public enum TemplateFilterName: String, CaseIterable, Sendable {
    case time, upper, lower, truncate, markup, json, `default`, prefix, suffix, icon

    /// What the filter's `:ARGUMENT` must be.
    enum ArgumentRule { case none, count, text }

    var argumentRule: ArgumentRule {
        switch self {
        case .truncate: .count
        case .default, .prefix, .suffix: .text
        case .time, .upper, .lower, .markup, .json, .icon: .none
        }
    }

    /// The value kinds it applies to; nil means any.
    var accepts: Set<TemplateValueKind>? {
        switch self {
        case .time: [.seconds, .number]
        case .icon: [.state, .mode]
        default: nil
        }
    }

    /// Escaping filters produce finished output: nothing may follow them, and `--waybar` does
    /// not escape their result again.
    var escapes: Bool { self == .markup || self == .json }

    /// `truncate:N`, `default:TEXT`, or the bare name.
    public var usage: String {
        switch argumentRule {
        case .none: rawValue
        case .count: "\(rawValue):N"
        case .text: "\(rawValue):TEXT"
        }
    }

    public var summary: String {
        switch self {
        case .time: "seconds as M:SS, or H:MM:SS from an hour on"
        case .upper: "upper case"
        case .lower: "lower case"
        case .truncate: "at most N user-perceived characters, ending in … when cut"
        case .markup: "escape & < > \" ' for Pango markup (waybar, i3blocks markup=pango)"
        case .json: "a JSON string or number literal (null when there is no value)"
        case .default: "TEXT when there is no value or it is empty"
        case .prefix: "TEXT before the value, only when there is one"
        case .suffix: "TEXT after the value, only when there is one"
        case .icon:
            "the state or a mode as a glyph: ▶ playing, ⏸ paused, ⏹ stopped, ⚠ interrupted; 🔂 repeat one, 🔁 repeat all, 🔀 shuffled, nothing when off"
        }
    }
}

/// One `|name:argument` step of a placeholder.
struct TemplateFilter: Equatable {
    let name: TemplateFilterName
    let argument: String
    let count: Int

    init(_ name: TemplateFilterName, argument: String = "", count: Int = 0) {
        self.name = name
        self.argument = argument
        self.count = count
    }

    func apply(_ value: TemplateValue?) -> TemplateValue? {
        switch name {
        case .default:
            guard let value, !value.plainText.isEmpty else { return .text(argument) }
            return value
        case .json:
            return .text(value.map(Self.jsonLiteral) ?? "null")
        default:
            break
        }
        guard let value else { return nil }
        switch name {
        case .time:
            switch value {
            case .seconds(let seconds), .number(let seconds): return .text(TimeText.format(seconds))
            case .text: return value
            }
        case .upper: return .text(value.plainText.uppercased())
        case .lower: return .text(value.plainText.lowercased())
        case .truncate: return .text(Self.truncate(value.plainText, to: count))
        case .markup: return .text(Self.pangoEscaped(value.plainText))
        case .prefix: return value.plainText.isEmpty ? value : .text(argument + value.plainText)
        case .suffix: return value.plainText.isEmpty ? value : .text(value.plainText + argument)
        case .icon: return .text(Self.icon(value.plainText))
        case .default, .json: return value
        }
    }

    static func truncate(_ text: String, to count: Int) -> String {
        guard text.count > count else { return text }
        return String(text.prefix(max(0, count - 1))) + "…"
    }

    static func pangoEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func icon(_ state: String) -> String {
        switch state {
        case "playing": "▶"
        case "paused": "⏸"
        case "stopped": "⏹"
        case "interrupted": "⚠"
        case "one": "🔂"
        case "all": "🔁"
        case "items": "🔀"
        case "off": ""
        default: "?"
        }
    }

    private static func jsonLiteral(_ value: TemplateValue) -> String {
        switch value {
        case .text(let text): JSONValue.string(text).serialized
        case .seconds(let number), .number(let number): JSONValue.number(number).serialized
        }
    }
}
