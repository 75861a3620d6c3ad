/// Carries a value across threads that the compiler cannot prove safe to share: one handed
/// from one thread to another, or only ever touched inside a lock. The user says which.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
