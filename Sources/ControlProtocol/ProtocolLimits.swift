import PlaybackModel

/// Bounds on what one client can make the daemon hold.
public enum ProtocolLimits {
    /// Largest queue index a request may name (the queue's maximum length).
    public static let maximumIndex = PlaybackQueue.maximumCount
    /// Items in one `queue` reply unless the request asks for fewer.
    public static let queuePageItems = 1_000
    /// Longest request line, newline excluded; longer lines are answered `badRequest`.
    public static let maximumLineBytes = 65_536
    /// Connected clients at once; more are told so and closed.
    public static let maximumClients = 64
    /// Unsent bytes queued for one client; a client (or subscriber) that lets more pile up
    /// is disconnected, so it never stalls playback or other clients.
    public static let maximumPendingOutputBytes = 1 << 18
    /// The latest time a request may name, seconds since the epoch (the year 5138).
    public static let latestTime = 1e11
}
