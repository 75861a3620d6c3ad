import ControlProtocol
import Testing

@testable import PlaybackDaemon

/// What a reload (SIGHUP) applies, read from each setting's own declaration.
@Suite struct ReloadTests {
    @Test("a reload keeps the settings that apply only at start, names the ones the file changed, and applies the rest")
    func keepsStartOnlySettings() {
        var running = DaemonSettings()
        running.device = "hw:0"
        running.socket = "/run/a.sock"
        var read = running
        read.device = "pulse"
        read.realtime = false
        read.pauseHoldSeconds = 3
        read.logLevel = .debug
        let (reloaded, changed) = read.reloaded(over: running)
        #expect(changed == ["device", "realtime"])
        #expect(reloaded.device == "hw:0" && reloaded.realtime && reloaded.socket == "/run/a.sock")
        #expect(reloaded.pauseHoldSeconds == 3 && reloaded.logLevel == .debug, "reloadable settings are applied")
        #expect(
            SettingsCatalog.all.filter { !$0.isReloadable }.map(\.name) == [
                "device", "snapcast", "socket", "stream-stall-timeout", "tls-ca-file", "library-directories",
                "mpd-listen", "mpd-password", "mpd-default-permissions", "realtime",
                "resume", "listenbrainz-url", "listenbrainz-token-file", "lastfm-url", "lastfm-auth-url",
                "lastfm-api-key", "lastfm-api-secret-file",
            ])
    }
}
