import Foundation
import Testing

extension IntegrationSuite {
    /// Issue 3, acceptance 4: the install step generates completions and the man page from the
    /// built playbackctl and installs them where bash, zsh, fish and man look; each one works.
    @Suite struct InstalledFiles {
        /// Runs `Scripts/lib/install-files.sh` on the debug build into a fresh prefix.
        final class Installation {
            let prefix = TestEnvironment.makeTemporaryDirectory()
            var share: String { prefix + "/share" }

            init() throws {
                let run = try CommandLineRun.run(
                    executable: TestEnvironment.packageRoot + "/Scripts/lib/install-files.sh",
                    [TestEnvironment.binDirectory, prefix], environment: ["XDG_CONFIG_HOME": prefix + "/config"])
                guard run.status == 0 else { throw TestFailure("install-files.sh failed: \(run.stderr)") }
            }

            deinit { try? FileManager.default.removeItem(atPath: prefix) }
        }

        private func shell(_ shell: String, _ script: String, directory: String? = nil) throws -> CommandLineRun {
            try CommandLineRun.run(executable: "/usr/bin/" + shell, ["-c", script], currentDirectory: directory)
        }

        @Test("everything lands in the prefix, and the unit points at the installed binary")
        func layout() throws {
            let installed = try Installation()
            for path in [
                "/bin/playbackctl", "/bin/playbackd", "/bin/playbackd-snapcast",
                "/share/bash-completion/completions/playbackctl",
                "/share/zsh/site-functions/_playbackctl", "/share/fish/vendor_completions.d/playbackctl.fish",
                "/share/man/man1/playbackctl.1", "/share/doc/playbackd/docs/media-keys.md",
            ] {
                #expect(FileManager.default.fileExists(atPath: installed.prefix + path), "\(path) missing")
            }
            let unit = try String(
                contentsOfFile: installed.prefix + "/config/systemd/user/playbackd.service", encoding: .utf8)
            #expect(unit.contains("ExecStart=\(installed.prefix)/bin/playbackd"))
            #expect(FileManager.default.fileExists(atPath: installed.prefix + "/config/systemd/user/playbackd.socket"))
            #expect(
                FileManager.default.fileExists(atPath: installed.prefix + "/config/systemd/user/playbackd-mpd.socket"))
        }

        @Test("the desktop entry MPRIS names is installed, hidden from menus, under the name DesktopEntry gives")
        func desktopEntry() throws {
            let installed = try Installation()
            let bus = try SessionBus()
            let daemon = try DaemonProcess(environment: bus.environment)
            _ = try bus.waitForName("org.mpris.MediaPlayer2.playbackd", timeout: 10)
            let name = try bus.property("DesktopEntry", interface: "org.mpris.MediaPlayer2") as? String
            let entry = try String(
                contentsOfFile: installed.share + "/applications/\(name ?? "?").desktop", encoding: .utf8)
            #expect(entry.contains("\nNoDisplay=true\n"))
            #expect(entry.contains("\nType=Application\n"))
            _ = daemon
        }

        @Test("bash completes verbs, aliases, options, option values, command names and files")
        func bash() throws {
            let installed = try Installation()
            let media = TestEnvironment.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: media) }
            _ = FileManager.default.createFile(atPath: media + "/a song.mp3", contents: Data())
            let script = installed.share + "/bash-completion/completions/playbackctl"
            func complete(_ words: [String]) throws -> String {
                let quoted = words.map { "'\($0)'" }.joined(separator: " ")
                let run = try shell(
                    "bash",
                    "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _playbackctl; printf '%s\\n' \"${COMPREPLY[@]}\"",
                    directory: media)
                #expect(run.stderr.isEmpty, "bash said: \(run.stderr)")
                return run.stdout
            }
            #expect(try complete(["playbackctl", "tog"]) == "toggle-play-pause\ntoggle\n")
            #expect(try complete(["playbackctl", "--json", "ne"]) == "next-track\nnext\n")
            #expect(try complete(["playbackctl", "disable", "skipF"]) == "skipForward\n")
            #expect(try complete(["playbackctl", "watch", "--w"]) == "--waybar\n")
            #expect(try complete(["playbackctl", "--generate-completion-script", "z"]) == "zsh\n")
            #expect(try complete(["playbackctl", "enqueue", "a"]) == "a song.mp3\n")
            #expect(try complete(["playbackctl", "help", "templ"]) == "templates\n")
        }

        @Test("bash, fish and zsh complete find and list filters with the library's names, case and accents folded")
        func libraryNames() throws {
            let installed = try Installation()
            let world = try LibraryWorld()
            let environment =
                "export PATH='\(TestEnvironment.binDirectory)':\"$PATH\" PLAYBACKD_SOCKET='\(world.daemon.socketPath)';"
            let bashScript = installed.share + "/bash-completion/completions/playbackctl"
            func bash(_ words: [String]) throws -> String {
                let quoted = words.map { "'\($0)'" }.joined(separator: " ")
                let run = try shell(
                    "bash",
                    environment
                        + "source '\(bashScript)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _playbackctl; printf '%s\\n' \"${COMPREPLY[@]}\""
                )
                #expect(run.stderr.isEmpty, "bash said: \(run.stderr)")
                return run.stdout
            }
            // Bash splits `artist=beyo` at `=`: the value alone is replied, quoted for the line.
            #expect(try bash(["playbackctl", "find", "artist", "=", "beyo"]) == "Beyoncé\n")
            #expect(try bash(["playbackctl", "find", "artist", "=", "sigur\\ r"]) == "Sigur\\ Rós\n")
            let genre = try bash(["playbackctl", "find", "genre", "=", "r&"])
            #expect(genre == "R\\&B\n")
            #expect(try bash(["playbackctl", "find", "art"]) == "artist=\n")
            #expect(try bash(["playbackctl", "list", "gen"]) == "genres\n")
            #expect(try bash(["playbackctl", "list", "albums", "album", "=", "THE"]) == "The\\ Wall\n")
            // Without '=' among the word breaks, the word is whole.
            #expect(try bash(["playbackctl", "find", "album=lem"]) == "album=Lemonade\n")
            let fishScript = installed.share + "/fish/vendor_completions.d/playbackctl.fish"
            let fish = try shell(
                "fish", environment + "source '\(fishScript)'; complete -C 'playbackctl find artist=Pink'")
            #expect(fish.stdout == "artist=Pink Floyd\n", "fish said: \(fish.stderr)")
            let zsh = try String(contentsOfFile: installed.share + "/zsh/site-functions/_playbackctl", encoding: .utf8)
            #expect(zsh.contains("find) _arguments ") && zsh.contains("'*:filter:_playbackctl_filters'"))
            // No daemon: nothing, and nothing said.
            let alone = try shell(
                "bash",
                "PLAYBACKD_SOCKET=/nonexistent/socket \(TestEnvironment.binDirectory)/playbackctl --complete-filter artist=b"
            )
            #expect(alone.status == 0 && alone.stdout.isEmpty && alone.stderr.isEmpty)
        }

        @Test("fish completes verbs with descriptions, flags and command names")
        func fish() throws {
            let installed = try Installation()
            let script = installed.share + "/fish/vendor_completions.d/playbackctl.fish"
            func complete(_ line: String) throws -> String {
                let run = try shell("fish", "source '\(script)'; complete -C '\(line)'")
                #expect(run.stderr.isEmpty, "fish said: \(run.stderr)")
                return run.stdout
            }
            #expect(
                try complete("playbackctl skip-f") == "skip-forward\tSkip forward (default: the preferred interval).\n")
            #expect(try complete("playbackctl enqueue --re").hasPrefix("--replace\t"))
            #expect(try complete("playbackctl enable changeP") == "changePlaybackPosition\nchangePlaybackRate\n")
            #expect(try complete("playbackctl watch --i3").hasPrefix("--i3blocks\t"))
        }

        @Test("zsh accepts the completion function and it defines every verb")
        func zsh() throws {
            let installed = try Installation()
            let script = installed.share + "/zsh/site-functions/_playbackctl"
            let check = try shell("zsh", "zsh -n '\(script)' && echo ok")
            #expect(check.stdout == "ok\n", "zsh -n: \(check.stderr)")
            let loaded = try shell(
                "zsh",
                "autoload -Uz compinit && compinit -u -d /tmp/zcompdump-$$ && fpath=('\(installed.share)/zsh/site-functions' $fpath) && autoload -Uz _playbackctl && whence -w _playbackctl; rm -f /tmp/zcompdump-$$"
            )
            #expect(loaded.stdout == "_playbackctl: function\n", "zsh: \(loaded.stderr)")
            let text = try String(contentsOfFile: script, encoding: .utf8)
            for verb in ["'play:", "'toggle-play-pause:", "'seek:", "'watch:", "'enqueue:", "'add:"] {
                #expect(text.contains(verb), "\(verb) missing")
            }
        }

        @Test("the man page renders without a warning and documents every verb and exit code")
        func manual() throws {
            let installed = try Installation()
            let page = installed.share + "/man/man1/playbackctl.1"
            let rendered = try CommandLineRun.run(executable: "/usr/bin/groff", ["-man", "-ww", "-Tutf8", page])
            #expect(rendered.status == 0)
            #expect(rendered.stderr.isEmpty, "groff warned: \(rendered.stderr)")
            let text = rendered.stdout.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
            for verb in [
                "toggle-play-pause", "skip-forward", "seek POSITION", "watch", "enqueue PATH...", "repeat MODE",
                "insert POSITION PATH...", "TEMPLATES",
                "NO_COLOR",
            ] {
                #expect(text.contains(verb), "\(verb) missing from the man page")
            }
            for (code, meaning) in ExitCodeTable.rows {
                #expect(text.contains("\n       \(code)      "), "exit code \(code) (\(meaning)) missing")
            }
        }
    }
}
