import ControlProtocol
import PlaybackDaemon
import PlaybackEngine
import PlaybackModel

#if canImport(Glibc)
    import Glibc
#endif

// The composition root: the only place concrete audio backends are chosen.
let options: DaemonOptions
do {
    options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error("playbackd: \(error)\nTry 'playbackd --help'.\n")
    exit(2)
}
if options.showHelp {
    print(DaemonOptions.usage)
    exit(0)
}
if options.showVersion {
    print("playbackd \(PlaybackdVersion.current)")
    exit(0)
}
let daemon = Daemon(
    options: options, sink: ALSASink(deviceName: options.device),
    openDecoder: { path throws(DecoderError) in try MPG123Decoder(path: path) })
exit(daemon.run())
