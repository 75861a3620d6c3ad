import SystemSupport

/// The decoder thread's work: decode the current item into the ring, then each upcoming item
/// of the same format, so item boundaries are sample-exact. libmpg123 writes straight into the
/// ring's free space (no intermediate copy). It blocks only when the ring (or the segment log)
/// is full, and is woken by the output thread or a halt.
struct DecoderLoop {
    let ring: SampleRing
    let segments: SegmentLog
    let upcoming: UpcomingItems
    let state: PipelineState
    let openDecoder: AudioDecoderFactory
    let outputWake: EventSignal
    let decoderWake: EventSignal
    let parking: ParkedDecoder

    /// Decodes from `decoder` (after seeking to `frame`, when given) until the queue ends, the
    /// format changes or the pipeline halts.
    func run(first decoder: any AudioDecoder, itemID: UInt64, seekingTo frame: Int?) {
        var decoder = decoder
        var itemID = itemID
        defer { parking.park(decoder, itemID: itemID) }
        if let frame {
            do {
                _ = try decoder.seek(toFrame: frame)
            } catch {
                state.itemsCutShort.add(1, ordering: .relaxed)
                guard let (nextID, next) = nextDecoder(format: decoder.format) else { return }
                (itemID, decoder) = (nextID, next)
            }
        }
        while !state.isHaltRequested {
            let region = ring.writableRegion()
            if region.isEmpty {
                guard waitForOutput() else { return }
                continue
            }
            let count: Int
            do {
                count = try decoder.read(into: region)
            } catch {
                // What was decoded plays; the item ends here, and the engine reports it.
                state.itemsCutShort.add(1, ordering: .relaxed)
                count = 0
            }
            guard count > 0 else {
                guard let (nextID, next) = nextDecoder(format: decoder.format) else { return }
                (itemID, decoder) = (nextID, next)
                continue
            }
            ring.commit(count)
            if state.outputWaitingForData.exchange(false, ordering: .acquiringAndReleasing) {
                outputWake.signal()
            }
        }
    }

    /// Opens the next upcoming item; nil at the end of the queue, on a format change or a halt.
    private func nextDecoder(format: AudioFormat) -> (UInt64, any AudioDecoder)? {
        while let item = upcoming.next() {
            guard let decoder = try? openDecoder(item.path) else {
                state.skippedItems.add(1, ordering: .relaxed)
                continue
            }
            guard decoder.format == format else {
                state.formatChangeItem.store(item.id, ordering: .relaxed)
                finish(.formatChange)
                return nil
            }
            while !segments.hasRoom {
                guard waitForOutput() else { return nil }
            }
            segments.append(.init(itemID: item.id, startSample: ring.totalWritten, firstFrame: 0, gain: item.gain))
            upcoming.noteSegmentStarted()
            return (item.id, decoder)
        }
        finish(.endOfQueue)
        return nil
    }

    private func finish(_ end: PipelineState.DecoderEnd) {
        upcoming.close()
        state.decoderEnd.store(end.rawValue, ordering: .releasing)
        outputWake.signal()
    }

    /// Sleeps until the output thread frees space; false when halted.
    private func waitForOutput() -> Bool {
        state.decoderWaitingForSpace.store(true, ordering: .sequentiallyConsistent)
        if ring.writableCount == 0 || !segments.hasRoom, !state.isHaltRequested {
            decoderWake.wait()
        }
        state.decoderWaitingForSpace.store(false, ordering: .relaxed)
        return !state.isHaltRequested
    }
}
