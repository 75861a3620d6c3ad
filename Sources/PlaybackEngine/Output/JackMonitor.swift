import PlaybackModel

/// Watches a sound card's jacks (headphones plugged in or pulled out) for route changes: the
/// card's control descriptors go into the event loop's poll set, and `readEvents` says what
/// changed when one is readable. Event loop only.
public protocol JackMonitor: AnyObject {
    /// The card (and PCM device) watched.
    var device: HardwareDevice { get }
    /// Readable when a jack changed; empty once the card is gone.
    var fileDescriptors: [Int32] { get }
    /// The route changes since the last call.
    func readEvents() -> [RouteChange]
    func close()
}

/// Opens a jack monitor for a card; the composition root chooses the implementation.
public typealias JackMonitorFactory = (HardwareDevice) throws(SinkError) -> any JackMonitor
