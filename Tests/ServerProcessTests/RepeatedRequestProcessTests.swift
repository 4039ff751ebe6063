import Foundation
import Glibc
import Testing

/// The real server answers a client repeating its request on one connection from the answer
/// the connection kept, and never with a page a write has changed since.
@Suite struct RepeatedRequestProcessTests {
    @Test func repeatsOnAConnection_areSessionHits_untilAWriteChangesThePage() throws {
        let (process, port, _, _) = try startServer(["--in-memory", "--no-access-log"])
        defer { if process.isRunning { process.terminate() } }
        let socket = try #require(connectSocket(port: port))
        defer { close(socket) }
        let request = "GET /orders?limit=3&sort=total HTTP/1.1\r\nHost: localhost\r\nX-Session-ID: repeats\r\n\r\n"
        let first = try #require(exchangeReply(socket, request))
        let id = try #require((first.json["items"] as? [[String: Any]])?.first?["id"] as? String)
        let repeats = (0..<3).compactMap { _ in exchangeReply(socket, request) }
        #expect(repeats.count == 3 && repeats.allSatisfy { $0.status == 200 && $0.body == first.body })
        #expect(repeats.allSatisfy { $0.headers["x-cache"] == "hit" })
        // The first repeat is handled (a session hit) and its answer kept; the next ones get that answer.
        #expect(repeats[0].headers["server-timing"]?.hasPrefix("session;dur=") == true)
        #expect(repeats.dropFirst().allSatisfy { $0.headers["server-timing"] == #"cache;desc="hit""# })
        #expect(repeats.allSatisfy { $0.headers["date"] != nil && $0.headers["etag"] == first.headers["etag"] })

        let edit = httpRequest(port: port, "PATCH", "/orders/\(id)", json: #"{"customerName":"Changed Since"}"#)
        #expect(edit.status == 200)
        let afterEdit = try #require(exchangeReply(socket, request))
        #expect(String(decoding: afterEdit.body, as: UTF8.self).contains("Changed Since"), "the page the write changed is not repeated")
        #expect(afterEdit.headers["etag"] != first.headers["etag"])

        let metrics = String(decoding: httpRequest(port: port, "GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("\nlistservice_requests_total 5\n"), "every repeat counted")
        #expect(metrics.contains(#"listservice_request_duration_seconds_count{route="list"} 5"#))
    }
}
