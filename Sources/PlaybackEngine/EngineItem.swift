/// What the engine needs to know of a queue item: its id (to report which item plays) and path.
public struct EngineItem: Sendable, Equatable {
    public var id: UInt64
    public var path: String

    public init(id: UInt64, path: String) {
        self.id = id
        self.path = path
    }
}
