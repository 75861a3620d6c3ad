import CDecoderLibraries
import SystemSupport

/// How `http://` and `https://` items are fetched: the same for every item.
public struct HTTPOptions: Sendable {
    /// Seconds without a byte after which a connection counts as stalled (and a connect as
    /// failed).
    public var stallSeconds: Double
    /// A file of CA certificates to trust instead of the system's (a private CA).
    public var caFile: String?
    /// Receives each title a live stream announces (set per item from its `DecoderRequest`).
    var onTitle: (@Sendable (StreamTitle) -> Void)?

    public init(stallSeconds: Double = 10, caFile: String? = nil) {
        self.stallSeconds = stallSeconds
        self.caFile = caFile
    }
}

/// An item fetched over HTTP(S) (`HTTPTransfer`), as a decoder reads it.
public final class HTTPSource: ByteSource {
    private let transfer: HTTPTransfer
    let response: HTTPTransfer.Response

    var size: Int? { response.size }
    var failure: DecoderError? { transfer.failure }
    /// Whether it is a live stream: no end, no seeking.
    var isLive: Bool { response.isLive }

    /// Connects and waits for the response's headers; throws what went wrong instead.
    init(url: String, options: HTTPOptions) throws(DecoderError) {
        guard playbackd_curl_load() == 1 else {
            throw .unsupported("streams need libcurl (libcurl.so.4), which cannot be loaded")
        }
        transfer = HTTPTransfer(url: url, options: options)
        guard transfer.start() else { throw .decodingFailed("no thread for the transfer") }
        do {
            response = try transfer.waitForResponse()
        } catch {
            transfer.close()
            throw error
        }
    }

    deinit { transfer.close() }

    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        transfer.read(at: offset, into: destination, count: count)
    }

    func seek(to offset: Int) -> Bool { transfer.seek(to: offset) }

    /// The whole body at `url` (a playlist), refused when it is longer than `maximumBytes` or
    /// is a live stream.
    public static func fetch(_ url: String, maximumBytes: Int, http: HTTPOptions) throws(DecoderError) -> [UInt8] {
        let source = try HTTPSource(url: url, options: http)
        if source.response.metadataInterval != nil { throw .notAudio("a live stream, not a playlist") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= maximumBytes {
            let got = chunk.withUnsafeMutableBytes {
                source.read(at: bytes.count, into: $0.baseAddress!, count: $0.count)
            }
            if got < 0 { throw source.failure ?? .readFailed("the transfer failed") }
            if got == 0 { return bytes }
            bytes += chunk[..<got]
        }
        throw .readFailed("longer than \(maximumBytes / (1 << 20)) MiB")
    }
}
