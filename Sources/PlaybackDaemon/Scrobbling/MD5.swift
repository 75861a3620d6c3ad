import CDecoderLibraries

/// MD5, by libcrypto (loaded on first use): Last.fm's signatures need it.
enum MD5 {
    /// The digest of `bytes` in lower-case hex; empty when libcrypto is missing.
    static func hex(_ bytes: [UInt8]) -> String {
        guard playbackd_crypto_load() == 1 else { return "" }
        var digest = [UInt8](repeating: 0, count: 16)
        var size: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            playbackd_EVP_Digest(input.baseAddress, input.count, &digest, &size, playbackd_EVP_md5(), nil)
        }
        guard done == 1 else { return "" }
        return digest.prefix(Int(size)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
