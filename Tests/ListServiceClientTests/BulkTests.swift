import Foundation
import ListServiceClient
import Testing

/// Bulk actions through the client: every item's outcome in the order given, an action that
/// refused them all answered the same way, and a body the service cannot take thrown.
@Suite struct BulkTests {
    @Test func eachItemsOutcomeInOrder_andAllRefusedIsAnAnswerToo() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let pending = try await client.page(OrderQuery(filter: .pending, limit: 2)).items
        let cancelled = try #require(try await client.page(OrderQuery(filter: .cancelled, limit: 1)).items.first)
        let stale = try #require(pending.last)
        _ = try await client.orders.update(stale.id, customerName: "Renamed Meanwhile")

        let result = try await client.orders.bulk(
            .complete,
            [
                BulkItem(pending[0].id, ifMatch: pending[0].version), BulkItem(stale.id, ifMatch: stale.version),
                BulkItem(cancelled.id), BulkItem("o-999999999"),
            ])
        #expect(result.items.map(\.id) == [pending[0].id, stale.id, cancelled.id, "o-999999999"])
        #expect(result.items.map(\.status) == [200, 412, 409, 404])
        #expect(result.items.map(\.isAccepted) == [true, false, false, false])
        #expect(result.accepted == 1 && result.refused == 3)
        #expect(result.items[0].detail?.row.status == "completed" && result.items[0].problem == nil)
        #expect(result.items[1].problem?.code == "precondition-failed" && result.items[1].detail == nil)
        #expect(result.items[2].problem?.status == 409)
        #expect(try await client.orders.detail(pending[0].id).row.status == "completed")

        // Nothing accepted (the service's 422 `nothing-accepted`): the same outcomes, not a throw.
        let none = try await client.orders.bulk(.cancel, [BulkItem(pending[0].id), BulkItem("o-999999999")])
        #expect(none.accepted == 0 && none.refused == 2)
        #expect(none.items.map(\.status) == [409, 404] && none.items[0].problem?.code == "conflict")
        #expect(try await client.orders.detail(pending[0].id).row.status == "completed")

        // A body the service cannot take is its problem.
        do {
            _ = try await client.orders.bulk(.complete, [])
            Issue.record("an empty bulk action was taken")
        } catch {
            #expect(error.status == 422 && error.code == "validation-failed")
        }

        // Deleted items answer 204 without a detail; a tap answers the user's row.
        let task = try #require(try await client.page(TaskQuery(limit: 1)).items.first)
        let deleted = try await client.tasks.bulk(.delete, [BulkItem(task.id)])
        #expect(deleted.items.first?.status == 204 && deleted.items.first?.detail == nil)
        let users = try await client.page(UserQuery(limit: 2)).items
        let tapped = try await client.users.bulk(.tap, users.map { BulkItem($0.id) })
        #expect(tapped.items.map(\.detail?.taps) == users.map { $0.taps + 1 })
    }
}
