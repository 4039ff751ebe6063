import HTTPLite
import ListService

/// `GET /metrics`: every owner's families (the core's, the access checks', the HTTP server's)
/// in the Prometheus text exposition format (version 0.0.4).
enum MetricsRoute {
    static func add(
        to router: inout Router, service: CollectionService, access: AccessMetrics,
        server: @escaping @Sendable () -> ServerStatistics.Snapshot?
    ) {
        router.get("/metrics") { _ in
            let families = service.metricFamilies + access.metricFamilies + (server()?.metricFamilies ?? [])
            return Response(contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: Array(render(families).utf8))
        }
    }

    /// The families as Prometheus text: `# HELP` and `# TYPE` lines, then a line per sample.
    static func render(_ families: [MetricFamily]) -> String {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                let labels =
                    sample.labels.isEmpty ? "" : "{" + sample.labels.map { "\($0.name)=\"\($0.value)\"" }.joined(separator: ",") + "}"
                text += "\(family.name)\(sample.suffix)\(labels) \(sample.value)\n"
            }
        }
        return text
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
