import ControlProtocol

/// The state file's reader as the daemon runs it at start, for the fuzz target
/// (`playbackd-fuzz state`: bytes in, the verdict out) and the benchmark
/// (`playbackd-bench state-read`: the time it takes).
public enum StateFileReading {
    /// The number of items the daemon would resume from the bytes; nil when it would set them
    /// aside. Parses and checks everything the daemon does at start, except whether the files
    /// exist.
    public static func itemCount(_ bytes: some Collection<UInt8>) -> Int? {
        (try? ResumeState(fileBytes: Array(bytes)))?.items.count
    }

    /// Nil when the daemon would set the bytes aside (not JSON, or not a state it can use);
    /// otherwise whether the state it reads writes back to a file that reads the same, and
    /// whose head (what a long queue shows while it is read) is its current item, where it is.
    public static func readsBack(_ bytes: some Collection<UInt8>) -> Bool? {
        let bytes = Array(bytes)
        _ = try? ResumeState.head(fileBytes: bytes, minimumItems: 0)
        guard let state = try? ResumeState(fileBytes: bytes) else { return nil }
        let written = state.fileBytes()
        guard let again = try? ResumeState(fileBytes: written) else { return false }
        let head = try? ResumeState.head(fileBytes: written, minimumItems: 0)
        let headIsCurrent =
            state.currentIndex.map { index in
                head?.0.items == [state.items[index]] && head?.1 == QueueLoading(index: index, count: state.items.count)
            } ?? (head == nil)
        return again.items == state.items && again.currentIndex == state.currentIndex
            && again.position == state.position && again.equalizer == state.equalizer && headIsCurrent
    }
}
