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
