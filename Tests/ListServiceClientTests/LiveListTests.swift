import Basics
import Foundation
import Glibc
import ListServiceClient
import Testing

/// Live lists of the Swift client against the real server process.
@Suite(.serialized) struct LiveListTests {
    @MainActor @Test func everyOpenListEqualsAFreshPageAfterEachOf200RandomWrites() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let german = Display(locale: "de-DE", timeZone: "Europe/Berlin")
        let english = Display(locale: "en-US", timeZone: "UTC")
        let pending = OrderQuery(filter: .pending, limit: 5, display: english)
        let johns = OrderQuery(search: "john", limit: 4, display: german)
        let days = OrderQuery(group: .day, limit: 5, display: german)
        let tasks = TaskQuery(limit: 5, display: english)
        let taps = UserQuery(sort: .taps, order: .descending, limit: 4, display: english)
        let map = QuakeMapQuery(display: english)
        let lists = (
            client.live(pending), client.live(johns), client.live(days), client.live(tasks), client.live(taps), client.live(map)
        )
        var generator = SplitMix64(seed: 31)
        var checked = 0
        for step in 0..<200 {
            try await randomWrite(client, port: service.port, step: step, using: &generator)
            let allMatch = await eventually {
                let first = await matchesFreshPage(lists.0, pending, client: client)
                let second = await matchesFreshPage(lists.1, johns, client: client)
                let third = await matchesFreshPage(lists.2, days, client: client)
                let fourth = await matchesFreshPage(lists.3, tasks, client: client)
                let fifth = await matchesFreshPage(lists.4, taps, client: client)
                let sixth = await matchesFreshPage(lists.5, map, client: client)
                return first && second && third && fourth && fifth && sixth
            }
            #expect(allMatch, "after write \(step)")
            guard allMatch else { break }
            checked += 1
        }
        #expect(checked == 200)
        #expect(!lists.2.sections.isEmpty && lists.5.total > 0)
    }

    /// One write of a random kind on a random item.
    func randomWrite(_ client: ListServiceClient, port: Int, step: Int, using generator: inout SplitMix64) async throws {
        let page = try await client.page(OrderQuery(filter: .pending, limit: 20))
        let order = page.items.randomElement(using: &generator)
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
            let name = ["John Writer", "Jöhn Neu", "Ada Byron", "Zoë Kim"].randomElement(using: &generator) ?? "John"
            _ = try await client.orders.create(
                .init(
                    customerName: name, currency: ["USD", "EUR", "JPY"].randomElement(using: &generator) ?? "USD",
                    items: [.init(name: "Mug", quantity: Int.random(in: 1...5, using: &generator), unitPrice: 12.5)],
                    shippingAddress: ShippingAddress(
                        street: "1 Main St", city: "Oslo", postalCode: "0154", country: "NO", isResidential: true)))
        case 1: if let order { _ = try await client.orders.update(order.id, customerName: "John Patched \(step)", ifMatch: order.version) }
        case 2: if let order { _ = try await client.orders.complete(order.id, ifMatch: order.version) }
        case 3: if let order { _ = try await client.orders.cancel(order.id) }
        case 4: if let order { try await client.orders.delete(order.id) }
        case 5, 6:
            let people = try await client.page(UserQuery(sort: .taps, order: .descending, limit: 8))
            if let person = people.items.randomElement(using: &generator) { try await client.users.tap(person.id) }
        case 7:
            _ = try await client.tasks.create(
                .init(title: "Task \(step)", dueDate: "2026-11-\(Int.random(in: 10...30, using: &generator))"))
        case 8:
            let open = try await client.page(TaskQuery(limit: 10))
            if let task = open.items.randomElement(using: &generator) {
                if Bool.random(using: &generator) {
                    _ = try await client.tasks.update(task.id, .init(isArchived: true), ifMatch: task.version)
                } else {
                    try await client.tasks.delete(task.id)
                }
            }
        default:
            let now = Int(Date().timeIntervalSince1970 * 1000)
            let feed = """
                {"type":"FeatureCollection","features":[{"type":"Feature","id":"test\(step)","properties":{"mag":\(Double(step % 70) / 10),\
                "place":"\(step) km N of Test","time":\(now),"updated":\(now)},"geometry":{"type":"Point","coordinates":[10,50,\(step)]}}]}
                """
            let reply = try await blocking { httpRequest(port: port, "POST", "/quakes/import", json: feed) }
            #expect(reply.status == 200)
        }
    }

    @MainActor @Test func aTapNotifiesOneRowAndANewOrderOnlyTheArray() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let people = client.live(UserQuery(sort: .name, limit: 10, display: Display(locale: "en-US", timeZone: "UTC")))
        #expect(await eventually { people.state == .live && people.rows.count == 10 })
        let target = people.rows[3]
        let taps = target.row.taps
        let rowFlags = people.rows.map { row in ObservationFlag.tracking { _ = row.row } }
        let arrayFlag = ObservationFlag.tracking { _ = people.rows }
        let totalFlag = ObservationFlag.tracking { _ = people.total }
        try await client.users.tap(target.id)
        #expect(await eventually { target.row.taps == taps + 1 })
        #expect(rowFlags.map(\.hasFired) == (0..<10).map { $0 == 3 })
        #expect(!arrayFlag.hasFired && !totalFlag.hasFired)

        let orders = client.live(OrderQuery(sort: .date, order: .descending, limit: 5))
        #expect(await eventually { orders.state == .live && orders.rows.count == 5 })
        let before = orders.rows
        let orderFlags = before.map { row in ObservationFlag.tracking { _ = row.row } }
        let ordersFlag = ObservationFlag.tracking { _ = orders.rows }
        let created = try await client.orders.create(
            .init(
                customerName: "Top Of The List", currency: "USD", items: [.init(name: "Pen", quantity: 1, unitPrice: 2)],
                shippingAddress: ShippingAddress(
                    street: "1 Main St", city: "Austin", postalCode: "73301", country: "US", isResidential: false)))
        #expect(await eventually { orders.rows.first?.id == created.id })
        #expect(ordersFlag.hasFired)
        #expect(orderFlags.allSatisfy { !$0.hasFired })
        #expect(orders.rows.dropFirst().map(\.id) == before.dropLast().map(\.id))
        #expect(zip(orders.rows.dropFirst(), before).allSatisfy { $0 === $1 })
    }

    /// Two clients of one session (two tabs, two devices): a quake one selects reaches the
    /// other's live list and map, changing no row.
    @MainActor @Test func aSelectionMadeByOneClientOfTheSession_reachesTheOthersLiveListAndMap() async throws {
        let service = try await RunningService.start()
        let session = UUID().uuidString.lowercased()
        let display = Display(locale: "en-US", timeZone: "UTC")
        let chooser = ListServiceClient(baseURL: RunningService.url(service.port), display: display, sessionID: session)
        let watcher = ListServiceClient(baseURL: RunningService.url(service.port), display: display, sessionID: session)
        let stranger = service.client
        // Yesterday (UTC): today has no quakes yet just after midnight.
        let yesterday = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10))
        let list = watcher.live(QuakeQuery(date: yesterday, limit: 20))
        let map = watcher.live(QuakeMapQuery(date: yesterday))
        let other = stranger.live(QuakeQuery(date: yesterday, limit: 20))
        #expect(await eventually { list.state == .live && map.state == .live && other.state == .live && !list.rows.isEmpty })
        #expect(list.selectedId == nil && map.selectedId == nil)
        let rowFlags = list.rows.map { row in ObservationFlag.tracking { _ = row.row } }
        let rowsFlag = ObservationFlag.tracking { _ = list.rows }
        let chosen = list.rows[1].id
        #expect(try await chooser.quakes.select(chosen) == chosen)
        #expect(await eventually { list.selectedId == chosen && map.selectedId == chosen })
        #expect(!rowsFlag.hasFired && rowFlags.allSatisfy { !$0.hasFired }, "a selection changes no row")
        #expect(try await chooser.quakes.select(nil) == nil)
        #expect(await eventually { list.selectedId == nil && map.selectedId == nil })
        #expect(other.selectedId == nil, "another session's")
        let later = watcher.live(QuakeQuery(date: yesterday, limit: 5))
        #expect(try await chooser.quakes.select(chosen) == chosen)
        #expect(await eventually { later.state == .live && later.selectedId == chosen })
    }

    @MainActor @Test func loadMoreToTheEndOfAThousandRowListYieldsEveryRowOnceAndStaysLive() async throws {
        let service = try await RunningService.start()
        let client = service.client
        let query = OrderQuery(filter: .cancelled, limit: 100)
        let list = client.live(query)
        #expect(await eventually { list.state == .live })
        #expect(list.total > 1000)
        var rounds = 0
        while list.canLoadMore, rounds < 30 {
            await list.loadMore()
            rounds += 1
        }
        /// Every row of the list, by cursor.
        func allRows() async throws -> [OrderRow] {
            var rows: [OrderRow] = []
            var cursor: String?
            repeat {
                let page = try await client.page(OrderQuery(filter: .cancelled, limit: 500), cursor: cursor)
                rows += page.items
                cursor = page.nextCursor
            } while cursor != nil
            return rows
        }
        let expected = try await allRows()
        #expect(list.rows.count == expected.count && list.rows.count == list.total)
        #expect(Set(list.rows.map(\.id)).count == list.rows.count)
        #expect(list.rows.map(\.row) == expected)

        let pending = try #require(try await client.page(OrderQuery(filter: .pending, limit: 1)).items.first)
        _ = try await client.orders.cancel(pending.id)
        let caughtUp = await eventually {
            guard let rows = try? await allRows() else { return false }
            return list.rows.map(\.row) == rows && list.rows.contains { $0.id == pending.id }
        }
        #expect(caughtUp)
    }

    /// Two widenings faster than the service answers, the first one's `PUT` held up on its
    /// way: the list ends with the rows of the second, since the service keeps the last `PUT`
    /// it handles and the client sends a list's one at a time.
    @MainActor @Test func quickChangesEndOnTheLast_evenWhenTheFirstPutIsSlow() async throws {
        let service = try await RunningService.start()
        // The first PUT puts the list on the stream; the second, the first widening's, is held.
        let proxy = try DelayingProxy(serverPort: service.port, delaying: "PUT ", occurrence: 2, by: 0.5)
        let client = ListServiceClient(baseURL: RunningService.url(proxy.port), display: Display(locale: "en-US", timeZone: "UTC"))
        let list = client.live(OrderQuery(filter: .cancelled, limit: 100))
        #expect(await eventually { list.state == .live && list.rows.count == 100 })
        async let first: Void = list.loadMore()
        try await Task.sleep(nanoseconds: 150_000_000)  // its PUT is on its way, held
        async let second: Void = list.loadMore()
        _ = await (first, second)
        let expected = try await client.page(OrderQuery(filter: .cancelled, limit: 300)).items
        #expect(await eventually(within: 10) { list.rows.map(\.row) == expected })
        try await Task.sleep(nanoseconds: 1_000_000_000)  // the held PUT, landing last, would have narrowed it by now
        #expect(list.rows.count == 300 && list.rows.map(\.row) == expected)
    }

    /// A list closed while its `PUT` is on its way is taken off the stream once that is
    /// answered: otherwise the service keeps it live, counted against the stream's lists, for
    /// as long as the stream stays open for others.
    @MainActor @Test func aListClosedWhileItsPutIsOnItsWay_leavesTheStream() async throws {
        let service = try await RunningService.start()
        // The first PUT puts the staying list on the stream; the second, the closed one's, is held.
        let proxy = try DelayingProxy(serverPort: service.port, delaying: "PUT ", occurrence: 2, by: 0.5)
        let client = ListServiceClient(baseURL: RunningService.url(proxy.port), display: Display(locale: "en-US", timeZone: "UTC"))
        let staying = client.live(OrderQuery(filter: .pending, limit: 10))
        #expect(await eventually { staying.state == .live })
        let closed = client.live(OrderQuery(filter: .cancelled, limit: 10))
        try await Task.sleep(nanoseconds: 150_000_000)  // its PUT is on its way, held
        closed.close()
        let held = try #require(proxy.requestLines.filter { $0.hasPrefix("PUT ") }.dropFirst().first)
        let delete = held.replacingOccurrences(of: "PUT ", with: "DELETE ")
        #expect(await eventually(within: 10) { proxy.requestLines.contains(delete) }, "\(proxy.requestLines)")
        #expect(proxy.requestLines.last { $0.contains("/lists/") } == delete, "nothing put the list back")
        #expect(staying.state == .live)
    }
}
