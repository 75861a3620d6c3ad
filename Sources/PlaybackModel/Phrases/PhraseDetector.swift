#if canImport(Glibc)
    import Glibc
#endif

/// Cuts an item into phrases from its level over short windows (`PhraseParameters.windowSeconds`):
///
/// 1. The item's own speech level is the 90th percentile of its window levels, its floor the
///    10th; a window is speech when it is louder than the speech level less `threshold` dB
///    (and at least 6 dB over the floor, so steady background noise is silence). Quiet and loud
///    recordings of the same speech are cut alike. Under -80 dBFS nothing is speech.
/// 2. Speech separated by a silence shorter than `minimumSilence` is one stretch; lone clicks
///    (under 50 ms) are not speech.
/// 3. A stretch shorter than `minimumPhrase` joins the neighbour across the shorter pause (a
///    breath does not cut a sentence; a short sentence long enough stays its own).
/// 4. A stretch longer than `maximumPhrase` is split where its level over 100 ms is lowest.
/// 5. Each phrase keeps `padding` seconds of the silence at both ends (the last one too), or
///    half the pause when the pause is shorter than two paddings.
public struct PhraseDetector: Sendable {
    public var parameters: PhraseParameters
    /// The length of one window of levels, seconds.
    public var window: Double

    public init(_ parameters: PhraseParameters, windowSeconds: Double = PhraseParameters.windowSeconds) {
        self.parameters = parameters
        window = windowSeconds
    }

    /// The level that stands for digital silence, dB.
    static let silenceFloor: Float = -120
    /// Quieter windows are no sound at all, whatever the item's own level: 16-bit dither
    /// (about -98 dBFS) is not speech.
    static let soundFloor: Float = -80

    /// The phrases among `windows` of `meanSquares` (one mean square per window; samples
    /// from -1 to 1), in an item `duration` seconds long.
    public func phrases(meanSquares: [Float], windows: Range<Int>, duration: Double) -> [Phrase] {
        let levels = windows.map { index in max(Self.silenceFloor, 10 * log10f(meanSquares[index])) }
        guard let threshold = threshold(levels) else { return [] }
        let offset = windows.lowerBound
        var spans = speech(levels, above: threshold).map { ($0.lowerBound + offset, $0.upperBound + offset) }
        spans = joinShort(spans)
        spans = splitLong(spans, levels: levels, offset: windows.lowerBound)
        return padded(spans, duration: duration)
    }

    private func windows(_ seconds: Double) -> Int { Int((seconds / window).rounded()) }

    /// The level under which a window is silence; nil when there is no sound at all. The
    /// percentiles come from a histogram of 0.1 dB steps: linear time, where sorting an hour's
    /// windows twice was most of the detector's time.
    private func threshold(_ levels: [Float]) -> Float? {
        var all = [Int](repeating: 0, count: Self.histogramBins)
        var sounding = [Int](repeating: 0, count: Self.histogramBins)
        var soundingCount = 0
        for level in levels {
            let bin = min(Self.histogramBins - 1, max(0, Int((level - Self.silenceFloor) * 10)))
            all[bin] += 1
            if level > Self.soundFloor {
                sounding[bin] += 1
                soundingCount += 1
            }
        }
        guard soundingCount >= windows(0.05) else { return nil }
        let speech = Self.percentile(sounding, count: soundingCount, tenths: 9)
        let floor = Self.percentile(all, count: levels.count, tenths: 1)
        let relative = speech - Float(parameters.threshold)
        return max(Self.soundFloor, min(max(relative, floor + 6), speech - 6))
    }

    /// Bins of 0.1 dB from -120 dBFS to +20 dBFS (a mean square above full scale is possible
    /// only for a decoder's overshoot).
    static let histogramBins = 1400

    /// The level `tenths` tenths of the way up a histogram of `count` windows.
    private static func percentile(_ histogram: [Int], count: Int, tenths: Int) -> Float {
        let rank = count * tenths / 10
        var seen = 0
        for (bin, windows) in histogram.enumerated() {
            seen += windows
            if seen > rank { return silenceFloor + Float(bin) / 10 }
        }
        return silenceFloor + Float(histogramBins) / 10
    }

    /// Runs of speech windows, joined across silences shorter than the minimum.
    private func speech(_ levels: [Float], above threshold: Float) -> [Range<Int>] {
        let shortestSilence = max(1, windows(parameters.minimumSilence))
        let shortestSound = windows(0.05)
        var runs: [Range<Int>] = []
        var index = 0
        while index < levels.count {
            guard levels[index] > threshold else {
                index += 1
                continue
            }
            var end = index
            while end < levels.count && levels[end] > threshold { end += 1 }
            if let last = runs.last, index - last.upperBound < shortestSilence {
                runs[runs.count - 1] = last.lowerBound..<end
            } else {
                runs.append(index..<end)
            }
            index = end
        }
        return runs.filter { $0.count >= shortestSound }
    }

    /// Joins each stretch shorter than the minimum phrase to its neighbour across the shorter
    /// pause, shortest first (the first of equals first). A heap of the short ones and a list
    /// of neighbours: an hour of clicks a third of a second apart is 10,000 stretches.
    private func joinShort(_ spans: [(Int, Int)]) -> [(Int, Int)] {
        let shortest = windows(parameters.minimumPhrase)
        let count = spans.count
        var (starts, ends) = (spans.map(\.0), spans.map(\.1))
        var previous = Array(-1..<(count - 1))
        var next = Array(1..<(count + 1))
        var alive = [Bool](repeating: true, count: count)
        var left = count
        var heap = MinimumHeap()
        for index in 0..<count where ends[index] - starts[index] < shortest {
            heap.push(ends[index] - starts[index], index)
        }
        while left > 1, let (length, index) = heap.pop() {
            // Entries of joined or grown stretches are stale.
            guard alive[index], ends[index] - starts[index] == length else { continue }
            let before = previous[index] >= 0 ? starts[index] - ends[previous[index]] : Int.max
            let after = next[index] < count ? starts[next[index]] - ends[index] : Int.max
            let other = before <= after ? previous[index] : next[index]
            let (first, second) = (min(index, other), max(index, other))
            ends[first] = ends[second]
            alive[second] = false
            next[first] = next[second]
            if next[second] < count { previous[next[second]] = first }
            left -= 1
            if ends[first] - starts[first] < shortest { heap.push(ends[first] - starts[first], first) }
        }
        return (0..<count).filter { alive[$0] }.map { (starts[$0], ends[$0]) }
    }

    /// Splits each stretch longer than the maximum where its level over 100 ms is lowest, at
    /// least a minimum phrase from either end, until none is longer. Of equally deep pauses the
    /// one nearest the middle, so a long even stretch halves (a steady hour takes log n rounds,
    /// not n).
    private func splitLong(_ spans: [(Int, Int)], levels: [Float], offset: Int) -> [(Int, Int)] {
        let longest = max(2, windows(parameters.maximumPhrase))
        let margin = max(1, min(windows(parameters.minimumPhrase), longest / 2 - 1))
        let width = max(1, windows(0.1))
        // Sums of the levels before each window, in Double: an hour of windows in Float would
        // lose the small differences that tell a pause.
        var before = [Double](repeating: 0, count: levels.count + 1)
        for (index, level) in levels.enumerated() { before[index + 1] = before[index] + Double(level) }
        var result: [(Int, Int)] = []
        var pending = Array(spans.reversed())
        while let span = pending.popLast() {
            guard span.1 - span.0 > longest else {
                result.append(span)
                continue
            }
            let middle = span.0 + (span.1 - span.0) / 2
            var best = middle
            var lowest = Double.infinity
            var candidate = span.0 + margin
            while candidate < span.1 - margin {
                let from = max(span.0, candidate - width / 2) - offset
                let to = min(span.1, candidate + width / 2 + 1) - offset
                let level = (before[to] - before[from]) / Double(to - from)
                if level < lowest - 1e-9 || (level <= lowest + 1e-9 && abs(candidate - middle) < abs(best - middle)) {
                    (lowest, best) = (min(level, lowest), candidate)
                }
                candidate += 1
            }
            pending.append((best, span.1))
            pending.append((span.0, best))
        }
        return result
    }

    /// Seconds, with the padding: never past the item, and meeting halfway when the pause is
    /// shorter than two paddings.
    private func padded(_ spans: [(Int, Int)], duration: Double) -> [Phrase] {
        let padding = parameters.padding
        return spans.indices.map { index in
            let (from, to) = (Double(spans[index].0) * window, Double(spans[index].1) * window)
            var start = max(0, from - padding)
            var end = min(duration, to + padding)
            if index > 0 {
                let previous = Double(spans[index - 1].1) * window
                start = max(start, (previous + from) / 2)
            }
            if index + 1 < spans.count {
                let next = Double(spans[index + 1].0) * window
                end = min(end, (to + next) / 2)
            }
            return Phrase(start: start, end: max(start, end))
        }
    }
}

/// A binary min-heap of (length, index) pairs, ordered by length, then index.
private struct MinimumHeap {
    private var entries: [(Int, Int)] = []

    mutating func push(_ length: Int, _ index: Int) {
        entries.append((length, index))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child] < entries[parent] else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Int, Int)? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return top }
        entries[0] = last
        var parent = 0
        while true {
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            var smallest = parent
            if left < entries.count && entries[left] < entries[smallest] { smallest = left }
            if right < entries.count && entries[right] < entries[smallest] { smallest = right }
            guard smallest != parent else { return top }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
