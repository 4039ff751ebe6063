import Foundation
import ListServiceClient
import Testing

/// Exports through the client: the whole list as a file on disk, row for row the list's pages.
@Suite struct ExportTests {
    @Test func aFileHoldsEveryRowOfTheList_andARefusalIsItsProblem() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let query = OrderQuery(filter: .pending, search: "an", group: .day, limit: 100)
        var rows: [OrderRow] = []
        var cursor: String?
        repeat {
            let page = try await client.page(query, cursor: cursor)
            rows += page.items
            cursor = page.nextCursor
        } while cursor != nil
        #expect(rows.count > 100, "more than one page")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ndjson = try await client.export(query, as: .ndjson, to: directory.appendingPathComponent("orders.ndjson"))
        let lines = try String(contentsOf: ndjson, encoding: .utf8).split(separator: "\n")
        let exported = try lines.map { try JSONDecoder().decode(OrderRow.self, from: Data($0.utf8)) }
        // The file's rows are the list's, without the sections a grouped page marks.
        #expect(exported.map(\.id) == rows.map(\.id))
        #expect(exported.first?.title == rows.first?.title && exported.allSatisfy { $0.sectionKey == nil })

        // CSV replaces what is at the destination: a header and one line per row.
        let csv = try await client.export(query, as: .csv, to: ndjson)
        let records = try String(contentsOf: csv, encoding: .utf8).split(separator: "\r\n")
        #expect(records.count == rows.count + 1 && records.first?.hasPrefix("ID,Title,") == true)

        do {
            let elsewhere = OrderQuery(display: Display(locale: "en-US", timeZone: "Mars/Olympus_Mons"))
            _ = try await client.export(elsewhere, to: directory.appendingPathComponent("refused.csv"))
            Issue.record("an unknown zone was exported")
        } catch {
            #expect(error.status == 400 && error.parameter == "tz")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("refused.csv").path))
        await #expect(throws: ListServiceError.self) {
            try await client.export(QuakeMapQuery(), to: directory.appendingPathComponent("map"))
        }
    }
}
