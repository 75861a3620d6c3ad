import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where the library's folders and databases are.
enum LibraryLocations {
    /// The configured folders, else the XDG music directory: `XDG_MUSIC_DIR` in
    /// `$XDG_CONFIG_HOME/user-dirs.dirs` (as `xdg-user-dirs` writes it), else `~/Music`.
    static func roots(configured: [String]?, environment: Environment) -> [String] {
        if let configured { return configured }
        guard let home = environment["HOME"], home.hasPrefix(bytes: "/") else { return [] }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix(bytes: "/") ? $0 : nil } ?? home + "/.config"
        if let bytes = try? FileSystem.readAll(config + "/user-dirs.dirs", maximumBytes: 65_536),
            let music = musicDirectory(in: String(decoding: bytes, as: UTF8.self), home: home)
        {
            return [music]
        }
        return [home + "/Music"]
    }

    /// `XDG_MUSIC_DIR="$HOME/Music"` in a user-dirs.dirs file, with `$HOME` expanded.
    static func musicDirectory(in text: String, home: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_MUSIC_DIR=") {
            var value = line.dropFirst("XDG_MUSIC_DIR=".count)
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = value.dropFirst().dropLast()
            }
            let path = value.hasPrefix("$HOME") ? home + value.dropFirst(5) : String(value)
            // user-dirs.dirs says a music directory equal to $HOME means none.
            return path.hasPrefix("/") && path != home && path != home + "/" ? path : nil
        }
        return nil
    }

    /// The index, under the cache directory (`$CACHE_DIRECTORY` under systemd).
    static func indexPath(environment: Environment) -> String? {
        (XDGDirectories.systemd("CACHE_DIRECTORY", environment: environment)
            ?? XDGDirectories.cache(environment: environment)).map { $0 + "/library-index.sqlite" }
    }

    /// What the user made, under the state directory (`$STATE_DIRECTORY` under systemd).
    static func userPath(environment: Environment) -> String? {
        (XDGDirectories.systemd("STATE_DIRECTORY", environment: environment)
            ?? XDGDirectories.state(environment: environment)).map { $0 + "/library.sqlite" }
    }
}
