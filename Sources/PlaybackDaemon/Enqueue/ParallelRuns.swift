import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Work on a long list of independent files, folders or lines (probing for an enqueue, walking
/// the library's folders and reading their tags, reading the state file's items), cut into one
/// contiguous run per processor (at most 4), each run on a background thread of its own
/// (`pbd-probe`) beside the calling one, which does the first. Results come back in the list's
/// order.
enum ParallelRuns {
    /// Lists shorter than this are done on the calling thread alone: a thread costs more than
    /// it saves.
    static let minimum = 256

    /// Online processors, at most 4.
    static let processors = max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    static func map<Item, Result>(
        _ items: [Item], minimum: Int = minimum, _ body: @escaping (ArraySlice<Item>) -> [Result]
    ) -> [Result] {
        let runs = items.count < minimum ? 1 : processors
        guard runs > 1 else { return body(items[...]) }
        let length = (items.count + runs - 1) / runs
        let slices = stride(from: 0, to: items.count, by: length).map { items[$0..<min($0 + length, items.count)] }
        let results = (1..<slices.count).map { _ in RunResults<Result>() }
        let work = UncheckedSendable(body)
        let threads = (1..<slices.count).map { index in
            let slice = UncheckedSendable(slices[index])
            let box = UncheckedSendable(results[index - 1])
            return NamedThread.start(name: "pbd-probe") {
                NamedThread.makeCurrentBackground(niceness: BackgroundWorker.niceness)
                box.value.value = work.value(slice.value)
            }
        }
        var all = body(slices[0])
        for (offset, thread) in threads.enumerated() {
            if let thread {
                thread.join()
                all += results[offset].value
            } else {
                all += body(slices[offset + 1])  // no thread to be had: this one does it
            }
        }
        return all
    }
}

/// What one run's thread found; read after the thread was joined.
private final class RunResults<Result> {
    var value: [Result] = []
}
