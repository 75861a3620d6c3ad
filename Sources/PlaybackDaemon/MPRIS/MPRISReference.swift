import ControlProtocol
import PlaybackModel

/// docs/mpris.md's tables, generated from the MPRIS declarations: every member of the two
/// interfaces, and how `Metadata` maps from the snapshot's track fields.
public enum MPRISReference {
    public static let membersSection = GeneratedSection(source: "MPRIS.interfaces")
    public static let metadataSection = GeneratedSection(source: "TrackField.all (mpris keys)")

    public static var membersTable: String {
        var text = "| interface | member | kind | signature | announced | what playbackd does |\n"
        text += "|---|---|---|---|---|---|\n"
        for interface in MPRIS.interfaces {
            for member in interface.bus.members {
                let (kind, signature, announced): (String, String, String)
                switch member.kind {
                case .method(let input, _):
                    (kind, signature, announced) = ("method", input.map(\.type).joined(), "")
                case .signal(let arguments):
                    (kind, signature, announced) = ("signal", arguments.map(\.type).joined(), "")
                case .property(let type, let writable, let emits):
                    let change =
                        switch emits {
                        case .change: "PropertiesChanged"
                        case .constant: "constant"
                        case .nothing: "never"
                        }
                    (kind, signature, announced) = ("property", type, change + (writable ? ", writable" : ""))
                }
                text += "| `\(interface.name)` | `\(member.name)` | \(kind) | "
                text += (signature.isEmpty ? "-" : "`\(signature)`") + " | \(announced) | "
                text += GeneratedSection.tableCell(member.summary) + " |\n"
            }
        }
        return text
    }

    public static var metadataTable: String {
        var text = "| MPRIS key | type | from |\n|---|---|---|\n"
        text += "| `mpris:trackid` | `o` | `/org/playbackd/item/<itemID>`; `\(MPRIS.noTrack)` with no item |\n"
        text += "| `xesam:url` | `s` | `url`: the file's `file://` URL |\n"
        for field in TrackField.all {
            guard let key = field.mpris else { continue }
            let type: String =
                switch field.storage {
                case .number, .requiredNumber: "i"
                case .seconds: "x"
                case .decimal: "d"
                case .text, .requiredText, .path: key.isList ? "as" : "s"
                }
            let unit =
                switch field.storage {
                case .seconds: " in microseconds"
                case .path: " as a `file://` URI"
                default: key.isList ? " as a one-element list" : ""
                }
            text += "| `\(key.name)` | `\(type)` | `\(field.key)`\(unit)\(field.isRequired ? "" : ", when known") |\n"
        }
        return text
    }
}
