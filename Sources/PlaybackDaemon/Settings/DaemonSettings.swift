import ControlProtocol
import PlaybackEngine
import PlaybackModel

/// The daemon's configurable values, from defaults, the configuration file and flags (in
/// that order of precedence, lowest first).
public struct DaemonSettings: Sendable, Equatable {
    public var device = "default"
    /// A Snapcast stream to play into instead of `device` (`snapcast`).
    public var snapcast: SnapcastAddress?
    public var socket: String?
    /// Seconds without a byte from an HTTP(S) stream's server before it counts as stalled.
    public var streamStallSeconds = 10.0
    /// CA certificates to trust for HTTPS instead of the system's (`tls-ca-file`).
    public var tlsCAFile: String?
    public var pauseHoldSeconds = 10.0
    public var skipForwardInterval = CommandCatalog.defaultSkipInterval
    public var skipBackwardInterval = CommandCatalog.defaultSkipInterval
    public var disabled: Set<CommandName> = []
    public var logLevel = DaemonLog.Level.info
    public var logTarget = LogTarget.auto
    /// Exit after this long with nothing queued and no client connected; 0 never.
    public var idleExitSeconds = 0.0
    /// Whether the output thread asks for SCHED_FIFO.
    public var realtime = true
    /// What a restart does with the saved queue and position.
    public var resume = ResumeMode.paused
    /// Whether the daemon is an MPRIS2 player on the session bus.
    public var mpris = true
    /// Software volume, percent.
    public var volume = 100.0
    /// The ten-band equalizer (off by default).
    public var equalizer = Equalizer()
    /// ReplayGain (off by default).
    public var replayGain = ReplayGainSettings()
    /// The playback rate applies to items at least this long, in seconds; shorter ones play at
    /// 1 (0: every item).
    public var rateMinimumSeconds = 0.0
    /// The crossfade between items (off by default: 0 seconds).
    public var crossfade = Crossfade()
    /// Items at least this long keep a bookmark, in seconds (0: none).
    public var bookmarkMinimumSeconds = 600.0
    /// The music library's folders; nil: the XDG music directory (`LibraryLocations`).
    public var libraryDirectories: [String]?
    /// Where MPD's protocol is served (`host:port` and socket paths); empty: nowhere.
    public var mpdListen: [String] = []
    /// MPD's passwords, each `PASSWORD@LEVELS` (`secret@read,add,control,admin`).
    public var mpdPasswords: [String] = []
    /// What an MPD client may do before a password; nil: everything without passwords, `read`
    /// with them.
    public var mpdDefaultPermissions: String?
    /// The sleep timer's fade, in seconds.
    public var sleepFadeSeconds = 10.0
    /// How items are cut into phrases (phrase mode).
    public var phrases = PhraseParameters()
    /// What a lost output device does to playback.
    public var onRouteLost = RouteLostAction.pause
    /// What a new output device does to playback paused by a lost one.
    public var onRouteBack = RouteBackAction.stayPaused
    /// Where listens are scrobbled, and the credentials' files.
    public var scrobbling = ScrobbleSettings()

    public init() {}
}

/// The scrobbling services' settings (docs/scrobbling.md): a service is on when its
/// credentials' files are named. Secrets are never settings themselves.
public struct ScrobbleSettings: Sendable, Equatable {
    public static let listenBrainzRoot = "https://api.listenbrainz.org"
    public static let lastFMRoot = "https://ws.audioscrobbler.com/2.0/"
    public static let lastFMAuthorizationPage = "https://www.last.fm/api/auth/"

    public var listenBrainzURL = listenBrainzRoot
    public var listenBrainzTokenFile: String?
    public var lastFMURL = lastFMRoot
    public var lastFMAuthorizationURL = lastFMAuthorizationPage
    public var lastFMAPIKey: String?
    public var lastFMSecretFile: String?
    /// Whether a live stream's titles ("Artist - Title", 30 s heard) are listens.
    public var streams = false

    public init() {}
}

/// What playback does when its output device goes away (`on-route-lost`).
public enum RouteLostAction: String, Sendable, CaseIterable {
    /// Pause, keeping the position: what iOS does when headphones are pulled out.
    case pause
    /// Play on wherever the system sends the stream.
    case `continue`
}

/// What a new output device does to playback that a lost one paused (`on-route-back`).
public enum RouteBackAction: String, Sendable, CaseIterable {
    /// Stay paused until asked.
    case stayPaused = "stay-paused"
    /// Play on, on the new device.
    case resume
}

/// Where log lines go.
public enum LogTarget: String, Sendable, CaseIterable {
    /// The journal when `JOURNAL_STREAM` says stderr is connected to it, else stderr.
    case auto
    /// Structured entries through `sd_journal_sendv`.
    case journal
    /// `<priority>label: message` lines on stderr.
    case stderr
}

/// What the daemon does with the state it saved when it starts again.
public enum ResumeMode: String, Sendable, CaseIterable {
    /// Restore the queue and position, paused.
    case paused
    /// Restore, and play on when it was playing.
    case playing
    /// Start empty (the state file is still written).
    case off
}

extension DaemonSettings {
    /// What a reload (SIGHUP) applies when these settings were read again while `running` is
    /// in effect: these, with the settings that apply only at start (each setting's
    /// `keepOnReload`) kept as `running` has them; and the names of those the file changed.
    func reloaded(over running: DaemonSettings) -> (settings: DaemonSettings, keptUntilRestart: [String]) {
        var applied = self
        let kept = SettingsCatalog.all.filter { spec in spec.keepOnReload?(&applied, running) ?? false }.map(\.name)
        return (applied, kept)
    }
}
