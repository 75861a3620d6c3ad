/// A long queue being read from the state file at start: the state holds only its current
/// item meanwhile, and the snapshot shows where that stands in the whole (`index` of `count`).
/// Commands wait until the queue is whole (`PlayerService.admits`); nothing is saved.
struct QueueLoading: Equatable, Sendable {
    var index: Int
    var count: Int
}
