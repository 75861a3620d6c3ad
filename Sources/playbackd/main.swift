import ControlProtocol
import PlaybackDaemon
import PlaybackEngine
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Exit status for a configuration the daemon refuses (sysexits' EX_CONFIG); the unit does
/// not restart on it (`RestartPreventExitStatus=`).
let configurationErrorStatus: Int32 = 78

// Before anything can start a thread: every thread must inherit the blocked signal mask, and
// the environment is changed only while there is one thread.
ProcessSignals.prepare()
ProcessHeap.prepare()
SoundServerIdentity.applyToEnvironment()

// The composition root: the only place concrete audio backends are chosen.
let options: DaemonOptions
do {
    options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error("playbackd: \(error)\nTry 'playbackd --help'.\n")
    exit(2)
}
if options.showHelp {
    Console.out(DaemonOptions.usage)
    exit(0)
}
if options.showVersion {
    Console.out("playbackd \(PlaybackdVersion.current)\n")
    exit(0)
}
let settings: DaemonSettings
do {
    settings = try options.settings(environment: .process)
} catch {
    Console.error("playbackd: invalid configuration: \(error)\n")
    exit(configurationErrorStatus)
}
let sink: any AudioSink =
    if let snapcast = settings.snapcast {
        SnapcastSink(address: snapcast)
    } else if settings.device == "default" {
        DefaultSink()
    } else if PulseSink.names(settings.device) {
        PulseSink(deviceName: settings.device)
    } else {
        ALSASink(deviceName: settings.device)
    }
let http = HTTPOptions(stallSeconds: settings.streamStallSeconds, caFile: settings.tlsCAFile)
let daemon = Daemon(
    options: options, settings: settings, sink: sink,
    openDecoder: { request throws(DecoderError) in try AudioFileFormat.open(request, http: http) },
    probeDecoder: { request throws(DecoderError) in try AudioFileFormat.open(request, readsPictures: true, http: http)
    },
    fetchPlaylist: { url, maximumBytes throws(DecoderError) in
        try HTTPSource.fetch(url, maximumBytes: maximumBytes, http: http)
    },
    openJackMonitor: { device throws(SinkError) in try ALSAJackMonitor(device: device) })
exit(daemon.run())
