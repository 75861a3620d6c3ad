import PlaybackModel
import Synchronization

/// The lock-free handoff of `SoundSettings` from the event loop to the output thread: a
/// sequence lock over atomic words. The event loop (the only writer) makes the sequence
/// odd, stores the words, and makes it even again; the output thread reads the words between
/// two reads of an even, unchanged sequence and otherwise keeps what it has until its next
/// write. Neither side waits, locks or allocates.
final class SoundControl: Sendable {
    private static let headerWords = 7
    private static let bandWords = 6
    static let wordCount = headerWords + bandWords * Equalizer.maximumBands

    private let sequence = Atomic<UInt64>(0)
    private let words: InlineArray<103, Atomic<UInt64>>

    init() {
        precondition(Self.wordCount == 103)
        words = InlineArray { _ in Atomic<UInt64>(0) }
        set(SoundSettings())
    }

    /// Publishes `settings`. Event loop only.
    func set(_ settings: SoundSettings) {
        let start = sequence.load(ordering: .relaxed)
        sequence.store(start &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        let equalizer = settings.equalizer
        store(0, equalizer.isEnabled ? 1 : 0)
        store(1, UInt64(min(equalizer.bands.count, Equalizer.maximumBands)))
        store(2, equalizer.globalGain.bitPattern)
        store(3, equalizer.preamp.bitPattern)
        store(4, settings.volume.bitPattern)
        store(5, UInt64(bitPattern: Int64(settings.fade?.startSample ?? Int.max)))
        store(6, UInt64(bitPattern: Int64(settings.fade?.endSample ?? Int.max)))
        for (index, band) in equalizer.bands.prefix(Equalizer.maximumBands).enumerated() {
            let base = Self.headerWords + index * Self.bandWords
            store(base, UInt64(EQFilterType.ordered.firstIndex(of: band.type)!))
            store(base + 1, band.frequency.bitPattern)
            store(base + 2, band.bandwidth.bitPattern)
            store(base + 3, band.gain.bitPattern)
            store(base + 4, band.bypass ? 1 : 0)
            store(base + 5, (band.q ?? .nan).bitPattern)
        }
        sequence.store(start &+ 2, ordering: .releasing)
    }

    /// The sequence number of the settings published last (even when complete).
    var version: UInt64 { sequence.load(ordering: .acquiring) }

    /// Reads the published settings into `parameters` when they are newer than `seen` and
    /// complete; returns their version, or nil (keep the current ones). Output thread.
    func read(ifNewerThan seen: UInt64, into parameters: inout SoundParameters) -> UInt64? {
        let first = sequence.load(ordering: .acquiring)
        guard first != seen, first & 1 == 0 else { return nil }
        var read = SoundParameters()
        read.itemGain = parameters.itemGain
        read.isEnabled = load(0) != 0
        read.bandCount = Int(min(load(1), UInt64(Equalizer.maximumBands)))
        read.globalGain = Double(bitPattern: load(2))
        read.preamp = Double(bitPattern: load(3))
        read.volume = Double(bitPattern: load(4))
        read.fadeStart = Int(Int64(bitPattern: load(5)))
        read.fadeEnd = Int(Int64(bitPattern: load(6)))
        for index in 0..<read.bandCount {
            let base = Self.headerWords + index * Self.bandWords
            let typeIndex = Int(min(load(base), UInt64(EQFilterType.ordered.count - 1)))
            let q = Double(bitPattern: load(base + 5))
            read.bands[index] = EQBand(
                type: EQFilterType.ordered[typeIndex], frequency: Double(bitPattern: load(base + 1)),
                bandwidth: Double(bitPattern: load(base + 2)), q: q.isNaN ? nil : q,
                gain: Double(bitPattern: load(base + 3)), bypass: load(base + 4) != 0)
        }
        atomicMemoryFence(ordering: .acquiring)
        guard sequence.load(ordering: .relaxed) == first else { return nil }
        parameters = read
        return first
    }

    private func store(_ index: Int, _ value: UInt64) { words[index].store(value, ordering: .relaxed) }
    private func load(_ index: Int) -> UInt64 { words[index].load(ordering: .relaxed) }
}

/// `SoundSettings` in fixed-size storage, as the output thread holds them (no allocation).
struct SoundParameters: Sendable {
    var isEnabled = false
    var bandCount = 0
    var globalGain = 0.0
    var preamp = 0.0
    var volume = 1.0
    /// The current item's gain (ReplayGain), from its segment rather than the handoff.
    var itemGain = 1.0
    /// The sleep timer's fade, in ring samples (`Int.max`: none).
    var fadeStart = Int.max
    var fadeEnd = Int.max
    var bands = InlineArray<16, EQBand>(repeating: EQBand(type: .parametric, frequency: 1000))

    /// Whether the output is the input, bit for bit.
    var isTransparent: Bool {
        guard volume == 1 && itemGain == 1 else { return false }
        guard isEnabled else { return true }
        guard globalGain == 0 && preamp == 0 else { return false }
        for index in 0..<bandCount where !bands[index].isFlat { return false }
        return true
    }
}
