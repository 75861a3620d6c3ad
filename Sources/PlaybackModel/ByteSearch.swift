extension Collection where Element == UInt8, Index == Int {
    /// Where `pattern` first starts in these bytes (a URL's, a metadata block's); nil when it
    /// does not occur. For byte arrays, which `StringProtocol.range(ofBytes:)` does not take.
    public func firstIndex(ofBytes pattern: [UInt8]) -> Int? {
        guard count >= pattern.count else { return nil }
        return (startIndex...(endIndex - pattern.count)).first {
            self[$0..<($0 + pattern.count)].elementsEqual(pattern)
        }
    }
}
