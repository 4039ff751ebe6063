import HTTPLite
import ListService

/// `GET /metrics`: every owner's families (the core's, the access checks', the route
/// latencies, the HTTP server's) in the Prometheus text exposition format (version 0.0.4), or
/// in OpenMetrics 1.0 (with the latency buckets' exemplars) for a scraper that asks for it
/// (`Accept: application/openmetrics-text`).
enum MetricsRoute {
    static func add(
        to router: inout Router, service: CollectionService, access: AccessMetrics, latencies: RouteLatencies,
        server: @escaping @Sendable () -> ServerStatistics.Snapshot?
    ) {
        router.get("/metrics") { request in
            let families = service.metricFamilies + access.metricFamilies + latencies.metricFamilies + (server()?.metricFamilies ?? [])
            if request.headers.values(for: "Accept").contains(where: { $0.contains("application/openmetrics-text") }) {
                return Response(
                    contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    bytes: Array(render(families, openMetrics: true).utf8))
            }
            return Response(contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: Array(render(families).utf8))
        }
    }

    /// The families as Prometheus text: `# HELP` and `# TYPE` lines, then a line per sample.
    /// In OpenMetrics a counter's family is named without its `_total` (its samples keep it),
    /// buckets carry their exemplars, and the text ends with `# EOF`.
    static func render(_ families: [MetricFamily], openMetrics: Bool = false) -> String {
        var text = ""
        for family in families {
            let name =
                openMetrics && family.kind == .counter && family.name.hasSuffix("_total") ? String(family.name.dropLast(6)) : family.name
            text += "# HELP \(name) \(family.help)\n# TYPE \(name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                let labels =
                    sample.labels.isEmpty ? "" : "{" + sample.labels.map { "\($0.name)=\"\($0.value)\"" }.joined(separator: ",") + "}"
                let exemplar = openMetrics ? sample.exemplar.map { " # \($0)" } ?? "" : ""
                text += "\(family.name)\(sample.suffix)\(labels) \(sample.value)\(exemplar)\n"
            }
        }
        return openMetrics ? text + "# EOF\n" : text
    }
}

extension ServerStatistics.Snapshot {
    /// The HTTP server's families on `/metrics`.
    var metricFamilies: [MetricFamily] {
        [
            MetricFamily("http_connections_open", .gauge, "Open client connections.", openConnections),
            MetricFamily("http_connections_accepted_total", .counter, "Connections accepted.", acceptedConnections),
            MetricFamily("http_connections_rejected_total", .counter, "Connections refused with 503 at the cap.", rejectedConnections),
            MetricFamily("http_requests_total", .counter, "Requests answered by handlers.", requests),
            MetricFamily("http_malformed_requests_total", .counter, "Requests rejected by the parser.", malformedRequests),
        ]
    }
}
