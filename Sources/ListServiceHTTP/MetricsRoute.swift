import HTTPLite
import ListService

/// `GET /metrics`: counters in the Prometheus text exposition format (version 0.0.4).
enum MetricsRoute {
    static func add(
        to router: inout Router, service: CollectionService, access: AccessMetrics,
        server: @escaping @Sendable () -> ServerStatistics.Snapshot?
    ) {
        router.get("/metrics") { _ in
            var text = ""
            func metric(_ name: String, _ type: String, _ help: String, _ value: Int) {
                text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
            }
            let metrics = service.metrics
            metric("listservice_requests_total", "counter", "List and row requests answered.", metrics.value(.requests))
            text += "# HELP listservice_cache_hits_total Requests served from a cache, by level.\n"
            text += "# TYPE listservice_cache_hits_total counter\n"
            text += "listservice_cache_hits_total{level=\"session\"} \(metrics.value(.sessionHits))\n"
            text += "listservice_cache_hits_total{level=\"shared\"} \(metrics.value(.sharedHits))\n"
            metric("listservice_cache_misses_total", "counter", "Requests that had to compute.", metrics.value(.misses))
            metric(
                "listservice_recomputations_total", "counter", "Lists computed from scratch (filter and walk of a presorted order).",
                metrics.value(.recomputations))
            metric(
                "listservice_lists_patched_total", "counter", "Cached lists patched in place after a change.", metrics.value(.listsPatched))
            metric("listservice_pages_built_total", "counter", "Response pages encoded.", metrics.value(.pagesBuilt))
            metric("listservice_rows_formatted_total", "counter", "Display rows formatted.", metrics.value(.rowsFormatted))
            metric("listservice_not_modified_total", "counter", "304 answers to If-None-Match.", metrics.value(.notModified))
            metric("listservice_sessions", "gauge", "Live sessions.", service.sessions.count)
            let live = service.live.metrics
            metric("listservice_live_streams", "gauge", "Open live streams (/…/live).", live.streamsOpen.load(ordering: .relaxed))
            metric("listservice_live_lists", "gauge", "Distinct live lists kept up to date.", live.lists.load(ordering: .relaxed))
            text += "# HELP listservice_live_events_total Events sent to live streams, by type (one per stream).\n"
            text += "# TYPE listservice_live_events_total counter\n"
            for kind in LiveMetrics.EventKind.allCases {
                text += "listservice_live_events_total{type=\"\(kind.rawValue)\"} \(live.events(kind))\n"
            }
            text += "# HELP listservice_live_resets_total Live lists replaced instead of patched, by reason.\n"
            text += "# TYPE listservice_live_resets_total counter\n"
            for reason in ResetReason.allCases {
                text += "listservice_live_resets_total{reason=\"\(reason.rawValue)\"} \(live.resets(reason))\n"
            }
            metric(
                "listservice_live_replays_total", "counter", "Reconnects answered by replaying missed events.",
                live.replays.load(ordering: .relaxed))
            metric("listservice_live_bytes_total", "counter", "Bytes handed to live streams.", live.bytes.load(ordering: .relaxed))
            metric(
                "listservice_live_rejections_total", "counter", "Live streams refused at a cap (503).",
                live.rejections.load(ordering: .relaxed))
            let replication = service.writes.replication
            metric(
                "listservice_changelog_position", "gauge", "The last change-log position applied here (0 without --database).",
                Int(replication.position.load(ordering: .relaxed)))
            metric(
                "listservice_replication_lag_changes", "gauge", "Changes committed to the database but not yet applied here.",
                Int(replication.lagChanges))
            metric(
                "listservice_replication_lag_milliseconds", "gauge",
                "From the commit of the last change read from the log to its apply here.",
                replication.lagMilliseconds.load(ordering: .relaxed))
            metric(
                "listservice_database_reconnects_total", "counter", "Connections to the database made again after one was lost.",
                replication.reconnects.load(ordering: .relaxed))
            metric(
                "listservice_stale_batches_total", "counter",
                "Write batches decided again because another replica changed their items first.",
                replication.staleBatches.load(ordering: .relaxed))
            metric(
                "listservice_replica_reloads_total", "counter", "Full reloads because the change log was trimmed past this replica.",
                replication.reloads.load(ordering: .relaxed))
            let histogram = live.latencyHistogram
            text += "# HELP listservice_live_commit_to_send_seconds From a change's commit to its event handed to the sockets.\n"
            text += "# TYPE listservice_live_commit_to_send_seconds histogram\n"
            for (bound, count) in zip(LiveMetrics.latencyBounds.map { "\($0)" } + ["+Inf"], histogram.cumulative) {
                text += "listservice_live_commit_to_send_seconds_bucket{le=\"\(bound)\"} \(count)\n"
            }
            text += "listservice_live_commit_to_send_seconds_sum \(histogram.sum)\n"
            text += "listservice_live_commit_to_send_seconds_count \(histogram.count)\n"
            metric(
                "listservice_refused_authentications_total", "counter", "Requests refused 401 for a missing or wrong API key.",
                access.refusedAuthentications.load(ordering: .relaxed))
            metric(
                "listservice_refused_origins_total", "counter", "Writes and preflights refused 403 from browser origins not allowed.",
                access.refusedOrigins.load(ordering: .relaxed))
            metric(
                "listservice_refused_hosts_total", "counter", "Requests refused 421 for a Host the service does not answer to.",
                access.refusedHosts.load(ordering: .relaxed))
            if let http = server() {
                metric("http_connections_open", "gauge", "Open client connections.", http.openConnections)
                metric("http_connections_accepted_total", "counter", "Connections accepted.", http.acceptedConnections)
                metric("http_connections_rejected_total", "counter", "Connections refused with 503 at the cap.", http.rejectedConnections)
                metric("http_requests_total", "counter", "Requests answered by handlers.", http.requests)
                metric("http_malformed_requests_total", "counter", "Requests rejected by the parser.", http.malformedRequests)
            }
            return Response(contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: Array(text.utf8))
        }
    }
}
