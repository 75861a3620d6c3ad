/// Why a request line was rejected (answered with `badRequest`).
public struct RequestError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
