import Basics

/// Which collections cannot be written right now (a journal append failed: disk full, I/O
/// error), readable from any thread for `/health/ready`. Cleared when an append succeeds again.
package final class StorageHealth: Sendable {
    private let failures = Locked<[String: String]>([:])

    init() {}

    /// The failing collections with the error each last reported, by name.
    package var failingCollections: [(name: String, error: String)] {
        failures.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// Whether the last append to `collection`'s journal failed.
    func isFailing(_ collection: String) -> Bool { failures.withLock { $0[collection] != nil } }

    func set(_ collection: String, failing error: String?) { failures.withLock { $0[collection] = error } }
}
