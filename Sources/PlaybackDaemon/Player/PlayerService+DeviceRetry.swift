import PlaybackModel

extension PlayerService {
    /// Playback interrupted on a device that comes back by itself (a Snapcast stream whose
    /// snapserver restarted, or is not there yet): tries again after 0.5 s, then twice as long
    /// each time up to 16 s, logging the first failure and the recovery only. Any other state
    /// stops the tries. Event loop only.
    func followDeviceRetry() {
        guard state.transport == .interrupted, engine.deviceReconnects else { return deviceRetry.reset() }
        guard !deviceRetry.isArmed else { return }
        log.notice(
            "'\(engine.deviceName)' is not there: trying again after \(DeviceRetry.firstDelay) s, "
                + "then up to every \(Int(DeviceRetry.longestDelay)) s; the queue and position are kept",
            event: "device-retry")
        deviceRetry.arm { [unowned self] in retryDevice() }
    }

    private func retryDevice() {
        guard state.transport == .interrupted else { return deviceRetry.reset() }
        let attempts = deviceRetry.attempts
        if startEngine(atFrame: state.heldFrame, logsDeviceFailure: false) == nil {
            log.notice(
                "'\(engine.deviceName)' is back after \(attempts) tr\(attempts == 1 ? "y" : "ies"): playing again",
                event: "device-back")
            deviceRetry.reset()
        } else {
            deviceRetry.arm { [unowned self] in retryDevice() }
        }
        publishChanges()
    }
}
