/// A picture from a file's tags (ID3v2 APIC/PIC): its MIME type and bytes.
public struct EmbeddedPicture: Sendable, Equatable {
    public var mimeType: String
    public var data: [UInt8]

    public init(mimeType: String, data: [UInt8]) {
        self.mimeType = mimeType
        self.data = data
    }
}
