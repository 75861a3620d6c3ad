import PlaybackModel

extension PlayerService {
    /// A route change a watcher saw: recorded for the snapshot, pushed and logged once; a lost
    /// device pauses playback (`on-route-lost`), and a new one resumes what a lost one paused
    /// when `on-route-back` says so. Event loop only.
    func routeChanged(_ change: RouteChange) {
        note(state.noteRoute(change))
        switch change.reason {
        case .oldDeviceUnavailable:
            var outcome = ""
            if state.transport == .playing || state.transport == .interrupted {
                if state.onRouteLost == .pause {
                    if state.transport == .playing { holdPosition(engine.halt()) }
                    note(state.pauseForLostRoute())
                    driver.transportChanged(to: .paused)
                    outcome = ": paused (on-route-lost = pause)"
                } else {
                    let goingOn = state.transport == .playing ? "playing on" : "still interrupted"
                    outcome = ": \(goingOn) (on-route-lost = continue)"
                }
            }
            log.notice("the output device '\(change.device)' went away\(outcome)", event: "route-lost")
        case .newDeviceAvailable:
            guard state.isPausedByRouteLoss, state.transport == .paused, state.onRouteBack == .resume else {
                log.info("a new output device appeared: '\(change.device)'", event: "route-new")
                break
            }
            if let failure = startEngine(atFrame: state.heldFrame) {
                log.error("cannot resume on the new output device '\(change.device)': \(failure.message)")
            } else {
                log.notice(
                    "a new output device appeared: '\(change.device)': resumed (on-route-back = resume)",
                    event: "route-new")
            }
        }
        publishChanges()
    }
}
