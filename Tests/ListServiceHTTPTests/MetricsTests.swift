import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `/metrics` renders whatever families their owners report, in Prometheus' text format.
@Suite struct MetricsTests {
    @Test func families_renderAsPrometheusText() {
        let text = MetricsRoute.render([
            MetricFamily("a_total", .counter, "Things.", 3),
            MetricFamily("b_total", .counter, "By kind.", label: "kind", [("x", 1), ("y", 2)]),
            MetricFamily(histogram: "c_seconds", "Times.", bounds: [0.5, 1], cumulative: [1, 2, 3], sum: 1.25, count: 3),
        ])
        #expect(
            text == """
                # HELP a_total Things.
                # TYPE a_total counter
                a_total 3
                # HELP b_total By kind.
                # TYPE b_total counter
                b_total{kind="x"} 1
                b_total{kind="y"} 2
                # HELP c_seconds Times.
                # TYPE c_seconds histogram
                c_seconds_bucket{le="0.5"} 1
                c_seconds_bucket{le="1.0"} 2
                c_seconds_bucket{le="+Inf"} 3
                c_seconds_sum 1.25
                c_seconds_count 3

                """)
    }

    @Test func openMetricsNamesCountersWithoutTotal_carriesExemplars_andEnds() {
        let text = MetricsRoute.render(
            [
                MetricFamily("a_total", .counter, "Things.", 3),
                MetricFamily(
                    "d_seconds", .histogram, "Times.",
                    samples: [
                        .init(suffix: "_bucket", labels: [("le", "+Inf")], value: "1", exemplar: #"{trace_id="ab"} 0.5 1795400000.123"#),
                        .init(suffix: "_sum", labels: [], value: "0.5"), .init(suffix: "_count", labels: [], value: "1"),
                    ]),
            ], openMetrics: true)
        #expect(
            text == """
                # HELP a Things.
                # TYPE a counter
                a_total 3
                # HELP d_seconds Times.
                # TYPE d_seconds histogram
                d_seconds_bucket{le="+Inf"} 1 # {trace_id="ab"} 0.5 1795400000.123
                d_seconds_sum 0.5
                d_seconds_count 1
                # EOF

                """)
    }

    /// Lists, rows and writes are timed by route, each bucket with the trace of its last request.
    @Test func eachRoutesLatency_isAHistogramWithTheTraceOfItsLastRequest() throws {
        let handler = ServiceRoutes.makeHandler(service: makeWriteTestService())
        let traced = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        _ = handler.send(.get, "/orders", headers: ["traceparent": traced])
        _ = handler.send(.get, "/orders/o-000001")
        #expect(handler.send(.delete, "/orders/o-000002").status == .noContent)
        let response = handler.send(.get, "/metrics", headers: ["Accept": "application/openmetrics-text; version=1.0.0"])
        #expect(response.headers["Content-Type"] == "application/openmetrics-text; version=1.0.0; charset=utf-8")
        let text = String(decoding: response.bodyBytes ?? [], as: UTF8.self)
        let lines = text.split(separator: "\n")
        for route in ["list", "row", "write"] {
            #expect(lines.contains("listservice_request_duration_seconds_count{route=\"\(route)\"} 1"), "\(route)")
            #expect(
                lines.contains {
                    $0.hasPrefix("listservice_request_duration_seconds_bucket{route=\"\(route)\"") && $0.contains(" # {trace_id=\"")
                })
        }
        #expect(lines.contains("listservice_request_duration_seconds_count{route=\"live\"} 0"))
        #expect(lines.contains { $0.contains(#"route="list""#) && $0.contains(#"# {trace_id="4bf92f3577b34da6a3ce929d0e0e4736"}"#) })
        #expect(lines.last == "# EOF")
        // The Prometheus text format has no exemplars.
        let plain = String(decoding: handler.send(.get, "/metrics").bodyBytes ?? [], as: UTF8.self)
        #expect(plain.contains(#"listservice_request_duration_seconds_count{route="list"} 1"#) && !plain.contains("# {trace_id"))
    }

    /// Each owner reports its own families; the service's are those of the caches, sessions,
    /// live lists and replication, each name once.
    @Test func theServicesFamilies_comeFromEachOwner_eachNameOnce() {
        let service = makeService(orders: [.make()])
        let names = service.metricFamilies.map(\.name)
        #expect(Set(names).count == names.count)
        for name in ["listservice_requests_total", "listservice_sessions", "listservice_live_streams", "listservice_changelog_position"] {
            #expect(names.contains(name), "\(name)")
        }
    }
}
