extension StringProtocol {
    /// The first range of `needle` in the string, comparing UTF-8 bytes; nil when it does not
    /// occur. Unlike `firstRange(of:)` it needs no `_StringProcessing`, which the executables
    /// do not link (about 140 KiB of memory while running, docs/performance.md); a match may
    /// split a grapheme cluster, so the needle is meant to be plain text such as a marker.
    public func range(ofBytes needle: String) -> Range<Index>? {
        let bytes = utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return startIndex..<startIndex }
        var start = bytes.startIndex
        while let candidate = bytes[start...].firstIndex(of: first) {
            var index = candidate
            var matched = 0
            while matched < pattern.count, index < bytes.endIndex, bytes[index] == pattern[matched] {
                bytes.formIndex(after: &index)
                matched += 1
            }
            if matched == pattern.count { return candidate..<index }
            start = bytes.index(after: candidate)
        }
        return nil
    }

    /// Whether `needle` occurs in the string, comparing UTF-8 bytes (see `range(ofBytes:)`).
    public func contains(bytes needle: String) -> Bool { range(ofBytes: needle) != nil }

    /// Whether the string starts with `prefix`, comparing UTF-8 bytes. `hasPrefix(_:)` also
    /// checks that the prefix ends on a grapheme-cluster boundary, Unicode work that pulls in
    /// code and tables the daemon otherwise never touches; a path, an option or a protocol
    /// word means its bytes (`/` followed by a combining mark still starts an absolute path).
    public func hasPrefix(bytes prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether the string ends with `suffix`, comparing UTF-8 bytes (see `hasPrefix(bytes:)`).
    public func hasSuffix(bytes suffix: String) -> Bool {
        let bytes = utf8
        let length = suffix.utf8.count
        guard let start = bytes.index(bytes.endIndex, offsetBy: -length, limitedBy: bytes.startIndex) else {
            return false
        }
        return bytes[start...].elementsEqual(suffix.utf8)
    }
}

extension String {
    /// The string with every occurrence of `target` replaced by `replacement`, left to right,
    /// comparing UTF-8 bytes (see `range(ofBytes:)`); `target` must not be empty.
    public func substituting(_ target: String, with replacement: String) -> String {
        precondition(!target.isEmpty, "substituting an empty string")
        var result = ""
        var rest = self[...]
        while let range = rest.range(ofBytes: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
