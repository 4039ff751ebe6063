import Synchronization

/// A counter on `/metrics`.
package enum ServiceCounter: CaseIterable, Sendable {
    /// List and row requests answered by the core.
    case requests
    /// Served from the session's own view-model: no work at all.
    case sessionHits
    /// Served from a page another session already computed.
    case sharedHits
    /// Computed: filtering, sorting or formatting ran.
    case misses
    /// Full filter-and-sort evaluations of a collection.
    case recomputations
    /// Cached lists patched in place after a change.
    case listsPatched
    case pagesBuilt
    case rowsFormatted
    case notModified
}

/// Counters that show the cache working (or not), as relaxed atomics.
package final class ServiceMetrics: Sendable {
    private let requests = Atomic<Int>(0)
    private let sessionHits = Atomic<Int>(0)
    private let sharedHits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let recomputations = Atomic<Int>(0)
    private let listsPatched = Atomic<Int>(0)
    private let pagesBuilt = Atomic<Int>(0)
    private let rowsFormatted = Atomic<Int>(0)
    private let notModified = Atomic<Int>(0)

    package init() {}

    package func increment(_ counter: ServiceCounter, by amount: Int = 1) {
        withCounter(counter) { _ = $0.add(amount, ordering: .relaxed) }
    }

    package func value(_ counter: ServiceCounter) -> Int {
        withCounter(counter) { $0.load(ordering: .relaxed) }
    }

    private func withCounter<T>(_ counter: ServiceCounter, _ body: (borrowing Atomic<Int>) -> T) -> T {
        switch counter {
        case .requests: body(requests)
        case .sessionHits: body(sessionHits)
        case .sharedHits: body(sharedHits)
        case .misses: body(misses)
        case .recomputations: body(recomputations)
        case .listsPatched: body(listsPatched)
        case .pagesBuilt: body(pagesBuilt)
        case .rowsFormatted: body(rowsFormatted)
        case .notModified: body(notModified)
        }
    }
}
