import Basics
import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `GET /{name}/export` at the front door: the file's head, at most four at once (a fifth is a
/// 503 with `Retry-After` until one ends; a refused one, 400 or 406, takes no place), and gzip
/// made as the file streams.
@Suite struct ExportRouteTests {
    @Test func aFilesHeadNamesItsTypeAndName_andAFifthAtOnceWaits() throws {
        let handler = ServiceRoutes.makeHandler(
            service: makeService(orders: DefaultOrders.make(count: 200, anchor: ISO8601.parse("2026-11-20T00:00:00Z") ?? Date())))
        var running: [Response] = []
        for accept in ["text/csv", "application/x-ndjson", "*/*", "text/csv"] {
            let response = handler.send(
                .get, "/orders/export", query: [("locale", "fr-FR")], headers: ["Accept": accept, "Accept-Encoding": "gzip"])
            #expect(response.status == .ok)
            guard case .download = response.body else {
                Issue.record("an export is a download")
                continue
            }
            #expect(response.headers["Content-Encoding"] == "gzip")
            #expect(response.headers["Vary"] == "Accept, Accept-Encoding, Accept-Language")
            #expect(response.headers["Cache-Control"] == "no-store")
            let name = accept == "application/x-ndjson" ? "ndjson" : "csv"
            #expect(response.headers["Content-Disposition"] == "attachment; filename=\"orders-2026-11-20.\(name)\"")
            running.append(response)
        }
        // Four files are being written (their responses hold their places): a fifth waits.
        let fifth = handler.send(.get, "/tasks/export")
        #expect(fifth.status == .serviceUnavailable && fifth.headers["Retry-After"] == "5")
        #expect(json(fifth.bodyBytes ?? [])["code"] as? String == "too-many-exports")
        running.removeLast()
        #expect(handler.send(.get, "/tasks/export").status == .ok)
        // A refused export takes no place.
        running.removeAll()
        for _ in 0..<6 { #expect(handler.send(.get, "/orders/export", query: [("format", "xml")]).status == .badRequest) }
        for _ in 0..<6 {
            let refused = handler.send(.get, "/orders/export", headers: ["Accept": "application/xml"])
            #expect(refused.status == .notAcceptable && refused.headers["Content-Type"] == "application/problem+json")
            let problem = json(refused.bodyBytes ?? [])
            #expect(problem["code"] as? String == "not-acceptable" && problem["parameter"] as? String == "Accept")
            #expect(problem["allowed"] as? [String] == ["text/csv", "application/x-ndjson"])
        }
        #expect(handler.send(.get, "/users/export").status == .ok)
    }

    @Test func gzipIsMadeAsTheFileStreams_andEndsAsOneMember() throws {
        let stream = GzipStream()
        var input: [UInt8] = []
        var output: [UInt8] = []
        var generator = SplitMix64(seed: 32)
        for chunk in 0..<40 {
            let piece = (0..<(chunk * 997 % 20_000)).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 8) }
            input += piece
            output += try #require(stream.compress(piece))
        }
        #expect(output.count < input.count / 2, "zlib gathers and compresses as it goes")
        output += try #require(stream.finish())
        #expect(gunzip(output) == input)
    }
}
