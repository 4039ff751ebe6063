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

extension ReplicationStatus {
    /// Replication's families on `/metrics` (all zero with a journal of this process's own).
    package var metricFamilies: [MetricFamily] {
        [
            MetricFamily(
                "listservice_changelog_position", .gauge, "The last change-log position applied here (0 without --database).",
                Int(position.load(ordering: .relaxed))),
            MetricFamily(
                "listservice_replication_lag_changes", .gauge, "Changes committed to the database but not yet applied here.",
                Int(lagChanges)),
            MetricFamily(
                "listservice_replication_lag_milliseconds", .gauge,
                "From the commit of the last change read from the log to its apply here.",
                lagMilliseconds.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_database_reconnects_total", .counter, "Connections to the database made again after one was lost.",
                reconnects.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_stale_batches_total", .counter,
                "Write batches decided again because another replica changed their items first.",
                staleBatches.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_replica_reloads_total", .counter, "Full reloads because the change log was trimmed past this replica.",
                reloads.load(ordering: .relaxed)),
        ]
    }
}
