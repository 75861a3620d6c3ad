/// The decoder a pipeline was using when it stopped, kept so that restarting the same item
/// (resume after pause, a seek, a skip) needs no new open and keeps the frame index built so
/// far: exact seeking in an MP3 reads every frame header up to the target the first time.
///
/// Written by the decoder thread as it exits; read by the event loop only after joining it.
final class ParkedDecoder: @unchecked Sendable {
    private(set) var itemID: UInt64?
    private(set) var decoder: (any AudioDecoder)?

    /// Decoder thread, on exit.
    func park(_ decoder: any AudioDecoder, itemID: UInt64) {
        self.decoder = decoder
        self.itemID = itemID
    }

    /// Event loop, after the join: hands the decoder over.
    func take() -> (itemID: UInt64, decoder: any AudioDecoder)? {
        defer {
            decoder = nil
            itemID = nil
        }
        guard let decoder, let itemID else { return nil }
        return (itemID, decoder)
    }
}
