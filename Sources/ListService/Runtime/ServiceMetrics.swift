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

extension ServiceMetrics {
    /// The cache's families on `/metrics`.
    package var metricFamilies: [MetricFamily] {
        [
            MetricFamily("listservice_requests_total", .counter, "List and row requests answered.", value(.requests)),
            MetricFamily(
                "listservice_cache_hits_total", .counter, "Requests served from a cache, by level.", label: "level",
                [("session", value(.sessionHits)), ("shared", value(.sharedHits))]),
            MetricFamily("listservice_cache_misses_total", .counter, "Requests that had to compute.", value(.misses)),
            MetricFamily(
                "listservice_recomputations_total", .counter, "Lists computed from scratch (filter and walk of a presorted order).",
                value(.recomputations)),
            MetricFamily(
                "listservice_lists_patched_total", .counter, "Cached lists patched in place after a change.", value(.listsPatched)),
            MetricFamily("listservice_pages_built_total", .counter, "Response pages encoded.", value(.pagesBuilt)),
            MetricFamily("listservice_rows_formatted_total", .counter, "Display rows formatted.", value(.rowsFormatted)),
            MetricFamily("listservice_not_modified_total", .counter, "304 answers to If-None-Match.", value(.notModified)),
        ]
    }
}
