import PlaybackModel

/// Where a configured service's credentials are, read again each time its scrobbler asks
/// (at start, at a reload, after a refusal): a changed file is taken up without a restart.
struct ScrobbleCredentials {
    /// The file in the state directory that keeps Last.fm's session key.
    static let lastFMSessionFile = "lastfm.session"

    let client: () -> Result<any ScrobbleClient, SecretFile.Problem>

    /// The credentials of `service`; nil when its settings do not configure it.
    init?(service: ScrobbleService, settings: ScrobbleSettings, stateDirectory: String) {
        switch service {
        case .listenbrainz:
            guard let tokenFile = settings.listenBrainzTokenFile else { return nil }
            let root = settings.listenBrainzURL
            client = {
                SecretFile.read(tokenFile).map { ListenBrainzClient(root: root, token: $0) as any ScrobbleClient }
            }
        case .lastfm:
            guard let signer = Self.lastFMSigner(settings) else { return nil }
            let sessionPath = stateDirectory + "/" + Self.lastFMSessionFile
            client = {
                signer().flatMap { signer in
                    SecretFile.read(sessionPath).mapError {
                        SecretFile.Problem(
                            description: "not authorised (\($0)): run playbackctl scrobble-login lastfm")
                    }.map { LastFMClient(signer: signer, sessionKey: $0) as any ScrobbleClient }
                }
            }
        }
    }

    /// Last.fm's authorisation, once its secret is read; nil when Last.fm is not configured.
    static func lastFMAuthorization(
        _ settings: ScrobbleSettings, stateDirectory: String
    ) -> Result<LastFMAuthorization, CommandFailure>? {
        lastFMSigner(settings).map { signer in
            signer().mapError { CommandFailure(.commandFailed, $0.description) }.map {
                LastFMAuthorization(
                    signer: $0, page: settings.lastFMAuthorizationURL,
                    sessionPath: stateDirectory + "/" + lastFMSessionFile)
            }
        }
    }

    /// What signs Last.fm's calls, the secret read when called; nil without a key and a secret file.
    private static func lastFMSigner(_ settings: ScrobbleSettings) -> (() -> Result<LastFMSigner, SecretFile.Problem>)?
    {
        guard let key = settings.lastFMAPIKey, let secretFile = settings.lastFMSecretFile else { return nil }
        let root = settings.lastFMURL
        return { SecretFile.read(secretFile).map { LastFMSigner(root: root, apiKey: key, secret: $0) } }
    }
}
