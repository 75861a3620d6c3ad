/// Where a Snapcast stream is fed, and what playbackd must know of that stream:
/// `tcp://HOST:PORT[?sampleformat=RATE:16:2][&buffer=MS][&chunk_ms=MS]`, snapserver's `tcp`
/// source in server mode (snapserver listens, playbackd connects). The query repeats what the
/// `[stream]` section of `snapserver.conf` says, where it differs from Snapcast's defaults: the
/// stream's rate (16-bit stereo only), its end-to-end `buffer` (1000 ms), and `chunk_ms` (20 ms).
public struct SnapcastAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The stream's sample rate: every item is resampled to it (or passes as it is).
    public var sampleRate: Int
    /// snapserver's `buffer`: how long after snapserver reads a chunk the rooms play it.
    public var bufferMilliseconds: Int
    /// snapserver's `chunk_ms`: it stamps the first chunk it reads one chunk in the past.
    public var chunkMilliseconds: Int

    /// Parses the setting's text; the error says what is wrong with it.
    public init(parsing text: String) throws(SnapcastAddressError) {
        guard text.hasPrefix("tcp://") else { throw .init("'\(text)': expected tcp://HOST:PORT") }
        let rest = text.dropFirst("tcp://".count)
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let authority = String(parts[0])
        guard let colon = authority.lastIndex(of: ":"),
            let port = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(port)
        else { throw .init("'\(text)': expected a port from 1 to 65535 after the host (tcp://HOST:PORT)") }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .init("'\(text)': no host") }
        self.host = host
        self.port = port
        sampleRate = 48_000
        bufferMilliseconds = 1000
        chunkMilliseconds = 20
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2 else { throw .init("'\(pair)': expected NAME=VALUE") }
            switch keyValue[0] {
            case "sampleformat":
                let fields = keyValue[1].split(separator: ":").map { Int($0) }
                guard fields.count == 3, let rate = fields[0], (8000...384_000).contains(rate), fields[1] == 16,
                    fields[2] == 2
                else { throw .init("sampleformat '\(keyValue[1])': expected RATE:16:2 (16-bit stereo)") }
                sampleRate = rate
            case "buffer":
                guard let value = Int(keyValue[1]), (20...10_000).contains(value) else {
                    throw .init("buffer '\(keyValue[1])': expected milliseconds from 20 to 10000")
                }
                bufferMilliseconds = value
            case "chunk_ms":
                guard let value = Int(keyValue[1]), (1...1000).contains(value) else {
                    throw .init("chunk_ms '\(keyValue[1])': expected milliseconds from 1 to 1000")
                }
                chunkMilliseconds = value
            default:
                throw .init("'\(keyValue[0])': unknown parameter (sampleformat, buffer, chunk_ms)")
            }
        }
    }

    /// How long after playbackd sends a sample at the stream's pace the rooms play it.
    public var latencyNanoseconds: UInt64 { UInt64(max(0, bufferMilliseconds - chunkMilliseconds)) * 1_000_000 }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "tcp://\(shownHost):\(port)"
    }
}

/// Why a Snapcast address cannot be used.
public struct SnapcastAddressError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
