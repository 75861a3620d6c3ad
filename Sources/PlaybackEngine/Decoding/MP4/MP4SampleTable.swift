/// Where each sample (an AAC frame, a chapter's text) of one track lies in the file and when it
/// plays, from the track's `stbl` boxes: `stts` (durations), `stsc` (samples per chunk), `stsz`
/// (sizes) and `stco` or `co64` (where each chunk starts). The sizes and chunk offsets are read
/// from the `moov` bytes as needed rather than copied: a 20-hour audiobook has 3 million frames.
struct MP4SampleTable {
    private let moov: MP4Bytes
    /// (samples, duration of each) runs, in the track's timescale.
    let durations: [(count: Int, duration: Int)]
    /// (first chunk, 0-based; samples in each chunk from there on), by first chunk.
    let chunkRuns: [(firstChunk: Int, samples: Int)]
    /// The size of every sample, or 0 when each has its own (`sizes`).
    private let constantSize: Int
    /// Where the 32-bit sizes start in `moov`.
    private let sizes: Int
    /// Where the chunk offsets start in `moov`, each `offsetWidth` bytes.
    private let offsets: Int
    private let offsetWidth: Int
    let chunkCount: Int
    let sampleCount: Int
    /// The longest track believed, in its timescale's units or in samples (18 days at
    /// 44.1 kHz): a time this long, scaled by a timescale or a rate (at most 2^24), cannot
    /// overflow. Longer is a lie.
    static let longest = 1 << 36
    /// The track's length in its timescale: the sum of every sample's duration.
    let duration: Int

    /// The table of the `stbl` box `table` of `moov`; nil when a box is missing or says more
    /// than its bytes hold.
    init?(_ moov: MP4Bytes, table: MP4Box) {
        self.moov = moov
        guard let stts = moov.first(MP4BoxType("stts"), in: table.body),
            let stsc = moov.first(MP4BoxType("stsc"), in: table.body),
            let stsz = moov.first(MP4BoxType("stsz"), in: table.body),
            let chunks = moov.boxes(in: table.body).first(where: {
                $0.type == MP4BoxType("stco") || $0.type == MP4BoxType("co64")
            })
        else { return nil }
        guard let runs = moov.u32(stts.body.lowerBound + 4), runs <= (stts.body.count - 8) / 8 else { return nil }
        var durations: [(count: Int, duration: Int)] = []
        var total = 0
        for run in 0..<runs {
            let at = stts.body.lowerBound + 8 + run * 8
            guard let count = moov.u32(at), let duration = moov.u32(at + 4) else { return nil }
            durations.append((count, duration))
            let (length, overflow) = count.multipliedReportingOverflow(by: duration)
            guard !overflow, length <= Self.longest - total else { return nil }
            total += length
        }
        guard let constant = moov.u32(stsz.body.lowerBound + 4), let count = moov.u32(stsz.body.lowerBound + 8),
            constant != 0 || count <= (stsz.body.count - 12) / 4
        else { return nil }
        offsetWidth = chunks.type == MP4BoxType("co64") ? 8 : 4
        guard let chunkCount = moov.u32(chunks.body.lowerBound + 4),
            chunkCount <= (chunks.body.count - 8) / offsetWidth,
            let chunkRunCount = moov.u32(stsc.body.lowerBound + 4), chunkRunCount <= (stsc.body.count - 8) / 12
        else { return nil }
        var chunkRuns: [(firstChunk: Int, samples: Int)] = []
        for run in 0..<chunkRunCount {
            let at = stsc.body.lowerBound + 8 + run * 12
            guard let first = moov.u32(at), let samples = moov.u32(at + 4), samples <= count,
                first - 1 > (chunkRuns.last?.firstChunk ?? -1)
            else { return nil }
            chunkRuns.append((first - 1, samples))
        }
        guard chunkRuns.first?.firstChunk == 0 || chunkCount == 0 else { return nil }
        self.durations = durations
        self.chunkRuns = chunkRuns
        constantSize = constant
        sizes = stsz.body.lowerBound + 12
        offsets = chunks.body.lowerBound + 8
        self.chunkCount = chunkCount
        sampleCount = count
        duration = total
    }

    /// The size in bytes of sample `index`.
    func size(of index: Int) -> Int {
        constantSize != 0 ? constantSize : moov.u32(sizes + index * 4) ?? 0
    }

    /// Where chunk `index` starts in the file.
    func offset(ofChunk index: Int) -> Int {
        (offsetWidth == 8 ? moov.u64(offsets + index * 8) : moov.u32(offsets + index * 4)) ?? 0
    }

    /// The sample that plays at `time` (in the track's timescale), and when it starts; the last
    /// sample's end for a time past it.
    func sample(at time: Int) -> (index: Int, start: Int) {
        var index = 0
        var start = 0
        for run in durations {
            let length = run.count * run.duration
            if time < start + length, run.duration > 0 {
                let within = (time - start) / run.duration
                return (index + within, start + within * run.duration)
            }
            index += run.count
            start += length
        }
        return (min(index, sampleCount), start)
    }

    /// When sample `index` starts, in the track's timescale, and the `durations` run it is in
    /// with how many samples of that run are left from it on.
    func start(of index: Int) -> (time: Int, run: Int, left: Int) {
        var remaining = index
        var start = 0
        for (run, entry) in durations.enumerated() {
            if remaining < entry.count { return (start + remaining * entry.duration, run, entry.count - remaining) }
            remaining -= entry.count
            start += entry.count * entry.duration
        }
        return (start, durations.count, 0)
    }

    /// The first sample of each chunk, with the chunk's index, from `sample`'s chunk on:
    /// `MP4SampleCursor` walks these.
    func chunk(containing sample: Int) -> (chunk: Int, firstSample: Int, run: Int)? {
        var first = 0
        for (run, entry) in chunkRuns.enumerated() {
            let end = run + 1 < chunkRuns.count ? chunkRuns[run + 1].firstChunk : chunkCount
            let samples = (end - entry.firstChunk) * entry.samples
            if sample < first + samples, entry.samples > 0 {
                let within = (sample - first) / entry.samples
                return (entry.firstChunk + within, first + within * entry.samples, run)
            }
            first += samples
        }
        return nil
    }

}

/// Walks a track's samples in order from any one of them: where each lies in the file, and
/// when it starts.
struct MP4SampleCursor {
    let table: MP4SampleTable
    private(set) var sample = 0
    /// When `sample` starts, in the track's timescale; its `durations` run, and what is left of it.
    private var time = 0
    private var durationRun = 0
    private var leftInRun = 0
    private var chunk = 0
    /// The `chunkRuns` entry `chunk` is in.
    private var run = 0
    private var remainingInChunk = 0
    private var offset = 0

    init(_ table: MP4SampleTable, from sample: Int = 0) {
        self.table = table
        move(to: sample)
    }

    /// Places the cursor before `sample`.
    mutating func move(to sample: Int) {
        self.sample = sample
        (time, durationRun, leftInRun) = table.start(of: sample)
        guard let found = table.chunk(containing: sample) else {
            remainingInChunk = 0
            chunk = table.chunkCount
            return
        }
        chunk = found.chunk
        run = found.run
        offset = table.offset(ofChunk: chunk)
        for earlier in found.firstSample..<sample { offset &+= table.size(of: earlier) }
        remainingInChunk = table.chunkRuns[run].samples - (sample - found.firstSample)
    }

    /// Where the next sample lies, its size and when it starts; nil after the last.
    mutating func next() -> (offset: Int, size: Int, start: Int)? {
        guard sample < table.sampleCount else { return nil }
        while remainingInChunk == 0 {
            chunk += 1
            guard chunk < table.chunkCount else { return nil }
            if run + 1 < table.chunkRuns.count, table.chunkRuns[run + 1].firstChunk <= chunk { run += 1 }
            offset = table.offset(ofChunk: chunk)
            remainingInChunk = table.chunkRuns[run].samples
        }
        let size = table.size(of: sample)
        let start = time
        while leftInRun == 0, durationRun + 1 < table.durations.count {
            durationRun += 1
            leftInRun = table.durations[durationRun].count
        }
        if leftInRun > 0 {
            time += table.durations[durationRun].duration
            leftInRun -= 1
        }
        defer {
            offset &+= size
            sample += 1
            remainingInChunk -= 1
        }
        return (offset, size, start)
    }
}
