import Foundation

/// The outcome of running a built executable.
struct CommandLineRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `TestEnvironment.binDirectory/name` with `arguments` and waits for it.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws -> CommandLineRun {
        try run(
            executable: TestEnvironment.binDirectory + "/" + name, arguments, environment: environment,
            currentDirectory: currentDirectory)
    }

    static func run(
        executable: String, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws -> CommandLineRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = TestEnvironment.marked(
            ProcessInfo.processInfo.environment.merging(environment) { $1 })
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandLineRun(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// Runs the built `playbackctl` against `daemon`'s socket.
func playbackctl(_ daemon: DaemonProcess?, _ arguments: [String], currentDirectory: String? = nil) throws
    -> CommandLineRun
{
    let socket = daemon?.socketPath ?? "/nonexistent/playbackd.sock"
    return try CommandLineRun.run("playbackctl", ["--socket", socket] + arguments, currentDirectory: currentDirectory)
}
