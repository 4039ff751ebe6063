import Basics
import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `Server-Timing` on list and row answers: the stages that ran, each timed, summing to no
/// more than the request took.
@Suite struct ServerTimingTests {
    /// The header's metrics: name → duration in milliseconds (nil for a note), and descriptions.
    static func metrics(_ header: String?) -> (durations: [String: Double], descriptions: [String: String]) {
        var durations: [String: Double] = [:]
        var descriptions: [String: String] = [:]
        for metric in (header ?? "").split(separator: ",") {
            let parts = metric.trimmingCharacters(in: .whitespaces).split(separator: ";")
            guard let name = parts.first.map(String.init) else { continue }
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                if pair[0] == "dur" { durations[name] = Double(pair[1]) }
                if pair[0] == "desc" { descriptions[name] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
        }
        return (durations, descriptions)
    }

    @Test func aListNamesTheStagesThatRanAndTheyFitInTheRequestsTime() throws {
        let handler = ServiceRoutes.makeHandler(
            service: makeService(orders: DefaultOrders.make(count: 2_000, anchor: ISO8601.parse("2026-11-20T00:00:00Z") ?? Date())))
        let query = [("filter", "pending"), ("q", "jo")]
        let session: HTTPHeaders = ["X-Session-ID": "timing-1", "Accept-Encoding": "gzip"]

        let started = MonotonicClock.nanoseconds()
        let miss = handler.send(.get, "/orders", query: query, headers: session)
        let elapsed = Double(MonotonicClock.nanoseconds() - started) / 1e6
        let (durations, descriptions) = Self.metrics(miss.headers["Server-Timing"])
        #expect(Set(durations.keys) == ["session", "filter", "sort", "counts", "format", "gzip"])
        #expect(descriptions == ["cache": "miss"])
        #expect(durations.values.allSatisfy { $0 >= 0 })
        // Each rounded to a microsecond: the sum may exceed the whole by that much per stage.
        #expect(durations.values.reduce(0, +) <= elapsed + 0.001 * Double(durations.count))

        // The same list again in the same session: its view-model answers; nothing is computed.
        let hit = handler.send(.get, "/orders", query: query, headers: session)
        let again = Self.metrics(hit.headers["Server-Timing"])
        #expect(Set(again.durations.keys) == ["session"] && again.descriptions == ["cache": "hit"])

        // A row: formatted once, then shared.
        let row = Self.metrics(handler.send(.get, "/orders/o-000001").headers["Server-Timing"])
        #expect(Set(row.durations.keys) == ["format"] && row.descriptions == ["cache": "miss"])
        let rowAgain = Self.metrics(handler.send(.get, "/orders/o-000001").headers["Server-Timing"])
        #expect(rowAgain.durations.isEmpty && rowAgain.descriptions == ["cache": "hit"])

        // What computes no page says nothing.
        #expect(handler.send(.get, "/health").headers["Server-Timing"] == nil)
    }
}
