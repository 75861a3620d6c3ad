import ControlCLI
import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

exit(Runner.run(Array(CommandLine.arguments.dropFirst()), environment: .process))
