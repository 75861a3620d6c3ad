import SystemSupport

/// A block of a documentation file that is generated from code, between two marker lines.
/// Tests compare the committed block with the generated one and, with
/// `PLAYBACKD_UPDATE_DOCS=1`, rewrite it.
public struct GeneratedSection: Sendable {
    public let source: String

    /// `source` names the declaration the block is generated from.
    public init(source: String) { self.source = source }

    public var beginMarker: String {
        "<!-- BEGIN GENERATED FROM \(source): edit that, then run PLAYBACKD_UPDATE_DOCS=1 swift test -->"
    }
    public let endMarker = "<!-- END GENERATED -->"

    /// `document` with the block between the markers replaced by `content`; nil without markers.
    public func replacing(in document: String, with content: String) -> String? {
        guard let begin = document.range(ofBytes: beginMarker),
            let end = document[begin.upperBound...].range(ofBytes: endMarker)
        else { return nil }
        return String(document[..<begin.upperBound]) + "\n" + content + String(document[end.lowerBound...])
    }

    /// `text` as the cell of a Markdown table: each `|` escaped.
    public static func tableCell(_ text: String) -> String { text.substituting("|", with: "\\|") }
}
