import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// The sockets systemd passed (socket activation: `LISTEN_FDS`, `LISTEN_FDNAMES`), read once:
/// reading them unsets the variables, and two front ends take theirs (the control socket,
/// `FileDescriptorName=control`; MPD's, `FileDescriptorName=mpd`).
enum PassedSockets {
    /// Each descriptor with its name (`unknown` when the unit named none).
    static let all: [(fd: Int32, name: String)] = {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return [] }
        var sockets: [(fd: Int32, name: String)] = []
        for index in 0..<Int(count) {
            sockets.append((SD_LISTEN_FDS_START + Int32(index), names?[index].map { String(cString: $0) } ?? "unknown"))
            free(names?[index])
        }
        free(names)
        return sockets
    }()

    /// The descriptors named one of `names`.
    static func named(_ names: Set<String>) -> [Int32] { all.filter { names.contains($0.name) }.map(\.fd) }
}
