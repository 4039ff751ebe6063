import Synchronization

/// Where a replica stands in the shared change log, for `/metrics` (all zero with a local
/// journal): readable from any thread.
package final class ReplicationStatus: Sendable {
    /// The last change-log position applied here.
    package let position = Atomic<UInt64>(0)
    /// The newest position the database was last seen to hold.
    package let head = Atomic<UInt64>(0)
    /// How long after its commit the last change from the log was applied here.
    package let lagMilliseconds = Atomic<Int>(0)
    /// Times the connection to the database was made again after losing it.
    package let reconnects = Atomic<Int>(0)
    /// Batches decided again because another replica changed one of their items first.
    package let staleBatches = Atomic<Int>(0)
    /// Times everything was loaded again because the log was trimmed past this replica.
    package let reloads = Atomic<Int>(0)

    package init() {}

    /// Changes committed to the database but not yet applied here.
    package var lagChanges: UInt64 {
        let head = head.load(ordering: .relaxed), position = position.load(ordering: .relaxed)
        return head > position ? head - position : 0
    }
}
