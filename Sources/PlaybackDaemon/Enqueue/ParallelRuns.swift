import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Work on a long list of independent files, folders or lines, on a background thread of its
/// own (`pbd-parallel`) per processor (at most 4) beside the calling one: `map` cuts the list into
/// one contiguous run per thread and gives the results back in the list's order (probing for an
/// enqueue, walking the library's folders and reading their tags); `forEachPiece` hands out
/// small pieces in turn (reading the state file's items).
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
            return NamedThread.start(name: "pbd-parallel") {
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

extension ParallelRuns {
    /// Calls `body` with pieces of `0..<count` (about eight a processor), which the calling
    /// thread and a `pbd-parallel` thread for each other processor take in turn until none is
    /// left: for work that puts its results in place by index (the state file's item lines). A
    /// thread that runs slower (its processor shared with another program) takes fewer pieces,
    /// so no processor waits for another. At most `minimum` items, the calling thread does it
    /// all in one piece.
    static func forEachPiece(of count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) {
        guard count > minimum, processors > 1 else {
            if count > 0 { body(0..<count) }
            return
        }
        let length = (count + processors * 8 - 1) / (processors * 8)
        let next = Locked(0)
        let work: @Sendable () -> Void = {
            while true {
                let start = next.withLock { start in
                    defer { start += length }
                    return start
                }
                guard start < count else { return }
                body(start..<min(start + length, count))
            }
        }
        let threads = (1..<processors).map { _ in
            NamedThread.start(name: "pbd-parallel") {
                NamedThread.makeCurrentBackground(niceness: BackgroundWorker.niceness)
                work()
            }
        }
        work()
        for thread in threads { thread?.join() }
    }
}

/// What one run's thread found; read after the thread was joined.
private final class RunResults<Result> {
    var value: [Result] = []
}
