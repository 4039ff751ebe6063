import Foundation
import ListServiceClient
import Testing

/// Pages read with the client: cursors, a section's jump, a deep link, details, the selected quake.
@Suite struct PageTests {
    @Test func cursorsSectionsAroundDetails_andTheSelectedQuake() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let query = OrderQuery(filter: .pending, group: .day, limit: 3)
        let first = try await client.page(query)
        let second = try await client.page(query, cursor: first.nextCursor)
        #expect(first.items.count == 3 && second.items.count == 3 && second.index == 3)
        #expect(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
        #expect(first.counts["pending"] == first.total && first.criteria["group"] == .string("day"))

        // A section's cursor opens the page at its first row.
        let sections = try #require(first.sections)
        let third = try #require(sections.dropFirst(2).first)
        let jumped = try await client.page(query, cursor: third.cursor)
        #expect(jumped.index == third.firstIndex && jumped.items.first?.sectionKey == third.key)

        // A deep link: the page centred on an item.
        let target = try #require(second.items.last)
        let around = try await client.page(query, around: target.id)
        #expect(around.items.contains { $0.id == target.id } && around.index == 4)

        let detail = try await client.orders.detail(target.id)
        var ungrouped = target
        ungrouped.sectionKey = nil
        #expect(detail.id == target.id && detail.row == ungrouped && !detail.items.isEmpty)
        let markers = try await client.page(QuakeMapQuery())
        #expect(markers.items.count == markers.total)

        // The session's selected quake, echoed by its list and its map; nil clears it. A quake
        // of yesterday (UTC): today has none yet just after midnight.
        let yesterday = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10))
        let quake = try #require(try await client.page(QuakeMapQuery(date: yesterday)).items.first)
        #expect(try await client.quakes.select(quake.id) == quake.id)
        #expect(try await client.page(QuakeQuery()).selectedId == quake.id)
        #expect(try await client.page(QuakeMapQuery()).selectedId == quake.id)
        #expect(try await client.quakes.select(nil) == nil)
        #expect(try await client.page(QuakeMapQuery()).selectedId == nil)
        do {
            try await client.quakes.select("us-no-such-quake")
            Issue.record("an unknown quake was selected")
        } catch {
            #expect(error.status == 404)
        }
    }
}
