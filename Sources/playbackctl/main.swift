import ControlCLI
import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

// Run as `playbackd-snapcast` (a link Scripts/install makes), it is Snapcast's stream plugin:
// snapserver's `controlscript=` takes a program, not a command line.
var arguments = Array(CommandLine.arguments.dropFirst())
if CommandLine.arguments.first?.split(separator: "/").last == "playbackd-snapcast" {
    arguments.insert(SnapcastPlugin.verb, at: 0)
}
exit(Runner.run(arguments, environment: .process))
