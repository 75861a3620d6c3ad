import PlaybackModel

/// The scrobbling services' commands (docs/scrobbling.md).
extension CommandCatalog {
    static let scrobbling: [CommandSpec] = [
        CommandSpec(
            .scrobbleStatus,
            "How each scrobbling service stands: whether it is configured and authorised, the listens it has not had, when it last took some, what went wrong last (docs/scrobbling.md).",
            remote: false, replies: .scrobbleStatus,
            verbs: [
                CLIVerb(
                    "scrobble-status", "Show how each scrobbling service stands.",
                    examples: ["scrobble-status", "--json scrobble-status"])
            ]
        ) { _ throws(RequestError) in .scrobbleStatus },
        CommandSpec(
            .scrobbleLogin,
            "Authorise a scrobbling service that needs it (Last.fm's desktop flow): without `token`, an address where the user allows playbackd and the token to name next; with it, whether it was allowed (the session key is then kept in the state directory, mode 0600, and never replied).",
            remote: false, replies: .scrobbleLogin,
            arguments: [
                ArgumentSpec("service", .string, required: true, "The service: lastfm."),
                ArgumentSpec("token", .string, "The token the first step gave."),
            ],
            verbs: [
                CLIVerb(
                    "scrobble-login",
                    "Authorise playbackd at SERVICE (lastfm): prints the address to open in a browser, waits until it is allowed (at most 10 minutes), and keeps the session.",
                    positionals: [CLIPositional("service", "SERVICE", .choice(["lastfm"]))],
                    examples: ["scrobble-login lastfm"])
            ]
        ) { args throws(RequestError) in
            guard let service = try args.choice("service", ScrobbleService.self), service == .lastfm else {
                throw RequestError("'service' must be lastfm")
            }
            let token = try args.string("token")
            if let token, token.isEmpty || token.count > 256 {
                throw RequestError("'token' must be 1 to 256 characters")
            }
            return .scrobbleLogin(service, token: token)
        },
    ]
}
