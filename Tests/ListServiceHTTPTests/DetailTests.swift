import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `GET /{name}/:id`: what a detail screen and an edit form need, formatted for the client,
/// with the raw values to pre-fill.
@Suite struct DetailTests {
    private let order = Order.make(
        id: "o-000007", currency: "EUR",
        items: [
            OrderItem(name: "Mug", quantity: 3, unitPrice: .dollars("12.50"), requiresSignature: false),
            OrderItem(name: "Laptop", quantity: 1, unitPrice: .dollars("1499"), requiresSignature: true),
        ])

    private func detail(_ path: String, _ query: [(String, String)] = [], service: CollectionService) -> [String: Any] {
        let response = ServiceRoutes.makeHandler(service: service).send(.get, path, query: query)
        #expect(response.status == .ok)
        return response.bodyJSON
    }

    @Test func anOrder_hasItsItems_address_andRawValues() {
        var shipped = order
        shipped.shippingAddress = ShippingAddress(
            street: "Karl Johans gate 1", city: "Oslo", postalCode: "0154", country: "NO", isResidential: true)
        let service = makeService(orders: [shipped])
        let german = detail("/orders/o-000007", [("locale", "de-DE")], service: service)
        #expect(german["formattedTotal"] as? String == "1.536,50\u{00A0}€", "the row's fields are all there")
        #expect(german["total"] as? String == "1536.50")
        #expect(german["currency"] as? String == "EUR")
        #expect(german["date"] as? String == "2026-11-02T14:31:05Z")
        let items = german["items"] as? [[String: Any]] ?? []
        #expect(items.count == 2)
        #expect(items.first?["formattedUnitPrice"] as? String == "12,50\u{00A0}€")
        #expect(items.first?["formattedLineTotal"] as? String == "37,50\u{00A0}€")
        #expect(items.first?["unitPrice"] as? String == "12.50")
        #expect(items.last?["requiresSignature"] as? Bool == true)
        #expect((german["shippingAddress"] as? [String: Any])?["postalCode"] as? String == "0154")
        #expect(german["formattedAddress"] as? String == "Karl Johans gate 1\n0154 Oslo\nNorwegen")
        let english = detail("/orders/o-000007", [("locale", "en-US")], service: service)
        #expect(english["formattedAddress"] as? String == "Karl Johans gate 1\n0154 Oslo\nNorway")
    }

    @Test(arguments: [
        ("US", "1 Main St\nAustin 73301\nUnited States"),
        ("GB", "1 Main St\nAustin\n73301\nUnited Kingdom"),
        ("FR", "1 Main St\n73301 Austin\nFrance"),
        ("JP", "1 Main St\nAustin 73301\nJapan"),
    ])
    func addresses_followTheDestinationCountrysOrder(country: String, lines: String) {
        let address = ShippingAddress(street: "1 Main St", city: "Austin", postalCode: "73301", country: country, isResidential: false)
        #expect(AddressFormat.lines(of: address, locale: Locale(identifier: "en_US")).joined(separator: "\n") == lines)
    }

    @Test func writes_answerWithTheDetail() {
        let service = makeService(orders: [order])
        let router = ServiceRoutes.makeHandler(service: service)
        let renamed = router.send(.patch, "/orders/o-000007", json: #"{"customerName":"Ada"}"#)
        #expect(renamed.bodyJSON["customerName"] as? String == "Ada")
        #expect((renamed.bodyJSON["items"] as? [Any])?.count == 2)
    }

    @Test func aTask_hasItsRawDueDate_aQuakeItsFeedTimes() throws {
        let due = try #require(ISO8601.parse("2026-11-22T09:00:00Z"))
        let time = try #require(ISO8601.parse("2026-11-20T01:00:00Z"))
        let service = makeService(
            tasks: [TaskItem(id: "t-1", title: "Plan", isActive: true, isArchived: false, dueDate: due, priority: .high)],
            quakes: [
                Earthquake(
                    id: "q1", magnitude: 4.3, place: "Alaska", time: time, updated: time.addingTimeInterval(3600), longitude: -150,
                    latitude: 61, depthKm: 10)
            ])
        let task = detail("/tasks/t-1", service: service)
        #expect(task["dueDate"] as? String == "2026-11-22T09:00:00Z")
        #expect(task["dueLabel"] as? String == "Due in 2 days")
        let quake = detail("/quakes/q1", [("tz", "Europe/Berlin"), ("locale", "de-DE")], service: service)
        #expect(quake["time"] as? String == "2026-11-20T01:00:00Z")
        #expect(quake["updated"] as? String == "2026-11-20T02:00:00Z")
        #expect((quake["formattedUpdated"] as? String)?.contains("03:00") == true, "in Berlin")
        #expect(quake["formattedDepth"] as? String == "10 km")
    }

    @Test func listRows_stayRows() throws {
        let (page, _) = try list(Orders.self, "", service: makeService(orders: [order]))
        let row = try #require((page["items"] as? [[String: Any]])?.first)
        #expect(row["items"] == nil && row["formattedAddress"] == nil, "a list carries only what a row shows")
    }
}
