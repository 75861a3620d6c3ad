import CMPG123
import SystemSupport

/// One libmpg123 handle kept for the next decoder, so that probing 10,000 files creates one
/// handle, not 10,000.
///
/// `mpg123_new` costs about 12 µs on this machine's VM, most of it in the three `cpuid`
/// instructions libmpg123 runs to choose its decoder (each one exits to the hypervisor): a
/// quarter of what probing a file cost. A handle is about 38 KB, so one is kept, not more.
enum MPG123SpareHandle {
    /// The handle lives only inside the lock, or with the one decoder that took it.
    private static let spare = Locked<UncheckedHandle?>(nil)

    private struct UncheckedHandle: @unchecked Sendable { let pointer: OpaquePointer }

    /// The kept handle (its file closed, its settings to be set again by the taker), or a new one.
    static func take() -> Result<OpaquePointer, DecoderError> {
        if let kept = spare.withLock({ kept in
            defer { kept = nil }; return kept
        }) {
            return .success(kept.pointer)
        }
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            return .failure(.decodingFailed(String(cString: mpg123_plain_strerror(error))))
        }
        return .success(handle)
    }

    /// Closes the handle's file and keeps the handle, or deletes it when one is already kept.
    static func give(_ handle: OpaquePointer) {
        mpg123_close(handle)
        let surplus = spare.withLock { kept -> OpaquePointer? in
            guard kept == nil else { return handle }
            kept = UncheckedHandle(pointer: handle)
            return nil
        }
        if let surplus { mpg123_delete(surplus) }
    }
}
