import Basics
import Foundation
import HTTPLite
import ListService

/// How long each kind of route takes to answer (a list, a row, a write until it is durable,
/// a live stream until it opens), as histograms on `/metrics`. Each bucket keeps the trace of
/// the last request it counted: an exemplar, which the OpenMetrics format shows, so a slow
/// bucket leads to one slow request's access log line.
package final class RouteLatencies: Sendable {
    package enum Route: String, CaseIterable, Sendable {
        case list, row, write, live

        var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// Upper bounds of the buckets, in seconds (the last is `+Inf`).
    static let bounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Exemplar {
        /// Its id is written out only when `/metrics` is read.
        let trace: TraceContext
        let seconds: Double
        let at: Double
    }

    private struct Histogram {
        /// Per bucket (not cumulative), `+Inf` last.
        var counts = [Int](repeating: 0, count: RouteLatencies.bounds.count + 1)
        var exemplars = [Exemplar?](repeating: nil, count: RouteLatencies.bounds.count + 1)
        var sum = 0.0
    }

    /// One per route, in `Route.allCases` order; changed in place.
    private let histograms = Locked([Histogram](repeating: Histogram(), count: Route.allCases.count))

    package init() {}

    /// Counts one answer of `route` that took `seconds`, under `trace`.
    package func observe(_ route: Route, seconds: Double, trace: TraceContext) {
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        let exemplar = Exemplar(trace: trace, seconds: seconds, at: Date().timeIntervalSince1970)
        let index = route.index
        histograms.withLock { histograms in
            histograms[index].counts[bucket] += 1
            histograms[index].exemplars[bucket] = exemplar
            histograms[index].sum += seconds
        }
    }

    /// `listservice_request_duration_seconds{route=…}`, one histogram per route.
    var metricFamilies: [MetricFamily] {
        let histograms = histograms.withLock { $0 }
        var samples: [MetricFamily.Sample] = []
        for route in Route.allCases {
            let histogram = histograms[route.index]
            let label = ("route", route.rawValue)
            var cumulative = 0
            for (index, bound) in (Self.bounds.map { "\($0)" } + ["+Inf"]).enumerated() {
                cumulative += histogram.counts[index]
                let exemplar = histogram.exemplars[index].map {
                    "{trace_id=\"\($0.trace.traceID)\"} \($0.seconds) \(String(format: "%.3f", $0.at))"
                }
                samples.append(.init(suffix: "_bucket", labels: [label, ("le", bound)], value: "\(cumulative)", exemplar: exemplar))
            }
            samples.append(.init(suffix: "_sum", labels: [label], value: "\(histogram.sum)"))
            samples.append(.init(suffix: "_count", labels: [label], value: "\(cumulative)"))
        }
        return [
            MetricFamily(
                "listservice_request_duration_seconds", .histogram,
                "Time to answer, by route: list, row, write (until durable), live (until the stream opens).", samples: samples)
        ]
    }
}
