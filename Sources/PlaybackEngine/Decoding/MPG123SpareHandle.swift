import CMPG123
import SystemSupport

/// libmpg123 handles kept for the next decoders, so that probing 10,000 files creates one
/// handle per probing thread, not 10,000.
///
/// `mpg123_new` costs about 12 µs on this machine's VM, most of it in the three `cpuid`
/// instructions libmpg123 runs to choose its decoder (each one exits to the hypervisor): a
/// quarter of what probing a file cost. A handle is about 38 KB; as many are kept as probing
/// runs threads at most (`maximumKept`).
enum MPG123SpareHandle {
    /// The handles live only inside the lock, or with the one decoder that took each.
    private static let spares = Locked<[UncheckedHandle]>([])
    static let maximumKept = 4

    private struct UncheckedHandle: @unchecked Sendable { let pointer: OpaquePointer }

    /// A kept handle (its file closed, its settings to be set again by the taker), or a new one.
    static func take() -> Result<OpaquePointer, DecoderError> {
        if let kept = spares.withLock({ $0.popLast() }) {
            return .success(kept.pointer)
        }
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            return .failure(.decodingFailed(String(cString: mpg123_plain_strerror(error))))
        }
        return .success(handle)
    }

    /// Closes the handle's file and keeps the handle, or deletes it when enough are kept.
    static func give(_ handle: OpaquePointer) {
        mpg123_close(handle)
        let surplus = spares.withLock { kept -> OpaquePointer? in
            guard kept.count < maximumKept else { return handle }
            kept.append(UncheckedHandle(pointer: handle))
            return nil
        }
        if let surplus { mpg123_delete(surplus) }
    }
}
