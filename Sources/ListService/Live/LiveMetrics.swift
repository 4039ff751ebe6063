import Basics
import Synchronization

/// The live lists' counters for `/metrics`.
package final class LiveMetrics: Sendable {
    package enum EventKind: String, CaseIterable, Sendable {
        case snapshot, delta, reset, selection, heartbeat
    }

    package let streamsOpen = Atomic<Int>(0)
    package let lists = Atomic<Int>(0)
    package let replays = Atomic<Int>(0)
    package let bytes = Atomic<Int>(0)
    package let rejections = Atomic<Int>(0)
    private let events = Locked<[EventKind: Int]>([:])
    private let resets = Locked<[ResetReason: Int]>([:])
    /// Commit → event handed to the sockets, in seconds: upper bounds and counts per bucket.
    package static let latencyBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
    private let latency = Locked<(buckets: [Int], sum: Double, count: Int)>(([Int](repeating: 0, count: 11), 0, 0))

    func count(_ kind: EventKind, streams: Int, bytes eventBytes: Int) {
        events.withLock { $0[kind, default: 0] += streams }
        bytes.add(streams * eventBytes, ordering: .relaxed)
    }

    func countReset(_ reason: ResetReason) { resets.withLock { $0[reason, default: 0] += 1 } }

    func observeLatency(_ seconds: Double) {
        let bucket = Self.latencyBounds.firstIndex { seconds <= $0 } ?? Self.latencyBounds.count
        latency.withLock {
            $0.buckets[bucket] += 1
            $0.sum += seconds
            $0.count += 1
        }
    }

    package func events(_ kind: EventKind) -> Int { events.withLock { $0[kind] ?? 0 } }
    package func resets(_ reason: ResetReason) -> Int { resets.withLock { $0[reason] ?? 0 } }
    /// Cumulative bucket counts (as Prometheus wants them), the sum and the count.
    package var latencyHistogram: (cumulative: [Int], sum: Double, count: Int) {
        latency.withLock { latency in
            var total = 0
            return (
                latency.buckets.map {
                    total += $0; return total
                }, latency.sum, latency.count
            )
        }
    }
}

/// Why a stream's window is replaced instead of patched.
package enum ResetReason: String, CaseIterable, Sendable {
    /// The events since the client's last one are no longer held.
    case gap
    /// The client read too slowly; its backlog was dropped.
    case slow
    /// One change moved too much of the window (or a bulk import swapped the data).
    case burst
    /// The client's last event is from before the server restarted.
    case restart
    /// The list the client watched is gone (no one watched it for a while).
    case expired
    /// The client's last event is from a list of another caller's scope (another account).
    case scope
}

extension LiveMetrics {
    /// Live lists' families on `/metrics`; `interval`: the pacing's event interval now.
    func metricFamilies(interval milliseconds: Int) -> [MetricFamily] {
        let histogram = latencyHistogram
        return [
            MetricFamily(
                "listservice_live_streams", .gauge, "Open live streams (/…/live and /live).", streamsOpen.load(ordering: .relaxed)),
            MetricFamily("listservice_live_lists", .gauge, "Distinct live lists kept up to date.", lists.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_live_events_total", .counter, "Events sent to live streams, by type (one per stream).", label: "type",
                EventKind.allCases.map { ($0.rawValue, events($0)) }),
            MetricFamily(
                "listservice_live_resets_total", .counter, "Live lists replaced instead of patched, by reason.", label: "reason",
                ResetReason.allCases.map { ($0.rawValue, resets($0)) }),
            MetricFamily(
                "listservice_live_replays_total", .counter, "Reconnects answered by replaying missed events.",
                replays.load(ordering: .relaxed)),
            MetricFamily("listservice_live_bytes_total", .counter, "Bytes handed to live streams.", bytes.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_live_rejections_total", .counter, "Live streams refused at a cap (503).", rejections.load(ordering: .relaxed)),
            MetricFamily(
                histogram: "listservice_live_commit_to_send_seconds",
                "From a change's commit to its event written to every stream's socket.",
                bounds: Self.latencyBounds, cumulative: histogram.cumulative, sum: histogram.sum, count: histogram.count),
            MetricFamily(
                "listservice_live_event_interval_milliseconds", .gauge,
                "How often one live list may send an event now (longer while the processor is saturated).", milliseconds),
        ]
    }
}
