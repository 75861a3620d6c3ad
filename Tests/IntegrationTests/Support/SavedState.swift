import ControlProtocol
import Foundation

/// A resume state file as a test reads it: its first line (everything but the items) and how
/// many item lines follow.
struct SavedState {
    /// The first line: version, position, state, modes, settings, `itemColumns`, `itemCount`.
    let header: JSONValue
    let itemLines: Int

    /// Nil when the file is missing or not whole (its header unreadable, or not as many item
    /// lines as it says).
    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        let newline = UInt8(ascii: "\n")
        guard let headerEnd = bytes.firstIndex(of: newline), bytes.last == newline,
            let header = try? JSONParser.parse(bytes[..<headerEnd]),
            let count = header["itemCount"]?.numberValue
        else { return nil }
        let lines = bytes[(headerEnd + 1)...].reduce(0) { $0 + ($1 == newline ? 1 : 0) }
        guard Double(lines) == count else { return nil }
        self.header = header
        itemLines = lines
    }

    subscript(key: String) -> JSONValue? { header[key] }
}
