import Foundation

@testable import ListService

extension Order {
    /// An order with defaults for every field a test does not care about; the total is the
    /// items' sum unless given.
    static func make(
        id: String = "o-000001", title: String = "Order #1", customerName: String = "John Appleseed",
        currency: String = "USD", total: Money? = nil, date: Date = ISO8601.parse("2026-11-02T14:31:05Z") ?? Date(),
        status: OrderStatus = .pending, items: [OrderItem]? = nil, isResidential: Bool = true
    ) -> Order {
        let items = items ?? [OrderItem(name: "Mug", quantity: 1, unitPrice: total ?? Money(cents: 999), requiresSignature: false)]
        let sum = Order.total(of: items)
        return Order(
            id: id, title: title, customerName: customerName, currency: .named(currency), total: total ?? sum, date: date,
            status: status, items: items,
            shippingAddress: ShippingAddress(
                street: "1 Main St", city: "Springfield", postalCode: "12345", country: "US", isResidential: isResidential))
    }
}

extension Order {
    /// The default orders with owners: every other one `big`'s, every 97th unowned (staff
    /// only), the rest their generated customers' (a few each).
    static func owned(count: Int, anchor: Date, mostlyBy big: OwnerID) -> [Order] {
        DefaultOrders.make(count: count, anchor: anchor).enumerated().map { index, order in
            var order = order
            if index % 2 == 0 { order.customer = big }
            if index % 97 == 0 { order.customer = .none }
            return order
        }
    }
}

extension Order {
    /// A valid `POST /orders` body.
    static let validCreateBody = """
        {"customerName":"Zoë Kim","currency":"EUR","items":[{"name":"Mug","quantity":3,"unitPrice":12.5,"requiresSignature":false},
         {"name":"Laptop","quantity":1,"unitPrice":1499,"requiresSignature":true}],
         "shippingAddress":{"street":"1 Main St","city":"Oslo","postalCode":"0150","country":"NO","isResidential":true}}
        """
}

extension Currency {
    /// The currency `code` names; a test naming one without a rate is a mistake in the test.
    static func named(_ code: String) -> Currency {
        guard let currency = Currency(rawValue: code) else { preconditionFailure("orders may not be in \(code)") }
        return currency
    }
}

extension Money {
    static func dollars(_ text: String) -> Money { (try? Money(parsing: text)) ?? Money(cents: -1) }
}

/// A service over the given items with a fixed clock (2026-11-20T12:00:00Z by default).
func makeService(
    orders: [Order] = [], tasks: [TaskItem] = [], quakes: [Earthquake] = [],
    now: Date = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()
) -> CollectionService {
    CollectionService(
        stores: [CollectionState<Orders>(items: orders), CollectionState<Tasks>(items: tasks), CollectionState<Quakes>(items: quakes)],
        clock: { now })
}

/// The in-memory service write tests run against: 50 default orders and one task, `t-000001`.
func makeWriteTestService() -> CollectionService {
    makeService(
        orders: DefaultOrders.make(count: 50, anchor: ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()),
        tasks: [
            TaskItem(
                id: "t-000001", title: "Write report", isActive: true, isArchived: false,
                dueDate: ISO8601.parse("2026-11-22T09:00:00Z") ?? Date(), priority: .high)
        ])
}

/// Lists collection `C` in a session (a fresh one unless given), as a client would.
func list<C: ListCollection>(
    _ collection: C.Type, _ query: String, session: Session? = nil, purpose: ListCriteria<C>.Purpose = .list,
    service: CollectionService, acceptLanguage: String? = nil
) throws -> ([String: Any], CacheOutcome) {
    let pairs = query.split(separator: "&").map { pair -> (name: String, value: String) in
        let parts = pair.split(separator: "=", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }
    let session = session ?? service.sessions.session(id: nil, adoptsUnknownID: true, now: service.now).session
    let (page, outcome) = try session.viewModel(for: C.self, purpose: purpose).page(
        for: ListRequest(parameters: pairs, acceptLanguage: acceptLanguage), session: session, engine: service.engine(C.self))
    return (json(page.body), outcome)
}

/// Decodes a response body for assertions.
func json(_ bytes: [UInt8]) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
}

func ids(_ page: [String: Any]) -> [String] {
    (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
}
