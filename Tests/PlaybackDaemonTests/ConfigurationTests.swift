import ControlProtocol
import DocumentationSupport
import Foundation
import PlaybackDaemon
import SystemSupport
import Testing

@Suite(.serialized) struct ConfigurationTests {
    @Test("docs/configuration.md holds the current table of settings")
    func documentationIsCurrent() throws {
        try GeneratedDocument.check(
            "docs/configuration.md", SettingsReference.section, content: SettingsReference.markdownTable)
    }

    @Test("flags parse into settings over the defaults; bad flags name themselves")
    func flags() throws {
        let options = try DaemonOptions.parse([
            "--device", "pulse", "--disable", "play", "--disable=pause", "--realtime", "no",
        ])
        let settings = try options.settings(environment: ["HOME": "/nonexistent"])
        #expect(settings.device == "pulse")
        #expect(settings.disabled == [.play, .pause])
        #expect(!settings.realtime)
        #expect(settings.pauseHoldSeconds == 10)
        #expect(throws: OptionsError("--pause-hold: '-1x' is not a number of seconds")) {
            try DaemonOptions.parse(["--pause-hold", "-1x"])
        }
        #expect(throws: OptionsError("unknown option '--loudness'")) { try DaemonOptions.parse(["--loudness", "3"]) }
        #expect(throws: OptionsError("--device needs a value")) { try DaemonOptions.parse(["--device"]) }
    }

    @Test("the file is found under XDG_CONFIG_HOME, else ~/.config")
    func defaultPath() {
        let path = { (environment: Environment) in ConfigurationFile.defaultPath(environment: environment) }
        #expect(path(["HOME": "/h", "XDG_CONFIG_HOME": "/c"]) == "/c/playbackd/config.toml")
        #expect(path(["HOME": "/h"]) == "/h/.config/playbackd/config.toml")
        #expect(path(["HOME": "/h", "XDG_CONFIG_HOME": "relative"]) == "/h/.config/playbackd/config.toml")
        #expect(path(["HOME": "relative"]) == nil, "a relative HOME is no base either")
    }

    @Test("every setting's usage line is in --help")
    func help() {
        for key in ["--device NAME", "--idle-exit SECONDS", "--log TARGET", "--config PATH", "--realtime BOOL"] {
            #expect(DaemonOptions.usage.contains(key), "\(key)")
        }
    }
}
