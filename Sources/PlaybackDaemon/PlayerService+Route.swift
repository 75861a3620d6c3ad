import PlaybackModel

extension PlayerService {
    /// A route change a watcher saw: recorded for the snapshot and pushed; a lost device pauses
    /// playback (`on-route-lost`), and a new one resumes what a lost one paused when
    /// `on-route-back` says so. Control loop only.
    func routeChanged(_ change: RouteChange) {
        routeChange = change
        noteChange(.route)
        switch change.reason {
        case .oldDeviceUnavailable:
            log.notice("the output device '\(change.device)' went away", event: "route-lost")
            guard state == .playing || state == .interrupted, onRouteLost == .pause else { break }
            _ = pause()
            isPausedByRouteLoss = true
            log.notice("paused: the output device went away (on-route-lost = pause)")
        case .newDeviceAvailable:
            log.info("a new output device appeared: '\(change.device)'", event: "route-new")
            guard isPausedByRouteLoss, state == .paused, onRouteBack == .resume else { break }
            if let failure = startEngine(atFrame: heldFrame) {
                log.error("cannot resume on the new output device: \(failure.message)")
            } else {
                log.notice("resumed on the new output device (on-route-back = resume)")
            }
        }
        publishChanges()
    }
}
