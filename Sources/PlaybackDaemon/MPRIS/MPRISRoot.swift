import PlaybackEngine

/// `org.mpris.MediaPlayer2`: the player's identity.
extension MPRIS {
    static let root = MPRISInterface(
        name: "org.mpris.MediaPlayer2",
        methods: [
            MPRISMethod("Raise", "Does nothing: playbackd has no window (CanRaise is false).") { _, _ in .nothing },
            MPRISMethod("Quit", "Stops the daemon, as SIGTERM does (a socket-activated one starts again).") { _, _ in
                .quit
            },
        ],
        properties: [
            MPRISProperty("CanQuit", "b", .constant, "true") { _ in .boolean(true) },
            MPRISProperty("CanRaise", "b", .constant, "false") { _ in .boolean(false) },
            MPRISProperty("HasTrackList", "b", .constant, "false: the queue is served on the socket") { _ in
                .boolean(false)
            },
            MPRISProperty("Identity", "s", .constant, "\"playbackd\"") { _ in .string("playbackd") },
            MPRISProperty("DesktopEntry", "s", .constant, "\"playbackd\" (playbackd.desktop, NoDisplay)") { _ in
                .string("playbackd")
            },
            MPRISProperty("SupportedUriSchemes", "as", .constant, "[\"file\", \"http\", \"https\"]") { _ in
                .strings(["file", "http", "https"])
            },
            MPRISProperty(
                "SupportedMimeTypes", "as", .constant,
                "the MIME types of every format played (README, \"Formats\")"
            ) { _ in
                .strings(AudioFileFormat.all.flatMap(\.mimeTypes))
            },
        ],
        signals: [])
}
