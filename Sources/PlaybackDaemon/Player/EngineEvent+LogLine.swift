import PlaybackEngine

extension EngineEvent {
    /// What the daemon's log says of this event on `device` (besides the debug line every
    /// event has), with `retry` the tries of a device that comes back by itself; nil for
    /// nothing. A try that fails while retrying fails quietly; a device back after tries says so.
    func logLine(device: String, retry: DeviceRetry) -> (level: DaemonLog.Level, line: String, event: String?)? {
        switch self {
        case .deviceOpened:
            guard retry.isActive else { return nil }
            let tries = retry.attempts == 1 ? "1 try" : "\(retry.attempts) tries"
            return (.notice, "'\(device)' is back after \(tries): playing again", "device-back")
        case .deviceFailed(let error, _, let opening):
            guard !retry.isActive else { return nil }
            return (.error, PlayerState.deviceErrorMessage(error, opening: opening, device: device), nil)
        case .itemsCutShort(let count, let reason):
            let why = reason.map { "\($0)" } ?? "decoding failed part-way"
            return (.warning, "\(count) item\(count == 1 ? "" : "s") ended early: \(why)", nil)
        case .itemsSkipped(let count):
            return (
                .warning, "passed over \(count) upcoming item\(count == 1 ? "" : "s") that could not be opened", nil
            )
        case .xrunsRecovered(let count):
            return (
                .warning, "audio device '\(device)' underran \(count) time\(count == 1 ? "" : "s") (xrun); recovered",
                nil
            )
        case .audible, .itemStarted, .finished, .streamTitle:
            return nil
        }
    }
}
