import Foundation

/// The orders' writes and details: `client.orders.complete(id, ifMatch: row.version)`.
/// Each answers the order as it is now (or throws the service's problem); `ifMatch` makes
/// the write refuse (412) when the order changed since that version was read.
public struct OrdersEndpoint: Sendable {
    let transport: HTTPTransport
    let display: Display

    /// A new order: the service assigns its id, title, date, status and total.
    public struct NewOrder: Encodable, Sendable {
        public struct Item: Encodable, Sendable {
            public var name: String
            public var quantity: Int
            public var unitPrice: Decimal
            public var requiresSignature: Bool

            public init(name: String, quantity: Int, unitPrice: Decimal, requiresSignature: Bool = false) {
                (self.name, self.quantity, self.unitPrice, self.requiresSignature) = (name, quantity, unitPrice, requiresSignature)
            }
        }

        public var customerName: String
        public var currency: String
        public var items: [Item]
        public var shippingAddress: ShippingAddress

        public init(customerName: String, currency: String, items: [Item], shippingAddress: ShippingAddress) {
            (self.customerName, self.currency, self.items, self.shippingAddress) = (customerName, currency, items, shippingAddress)
        }
    }

    public func detail(_ id: String) async throws(ListServiceError) -> OrderDetail {
        try await transport.send("GET", itemPath(id), as: OrderDetail.self)
    }

    public func create(_ order: NewOrder) async throws(ListServiceError) -> OrderDetail {
        try await transport.send("POST", "/orders" + display.query, body: order, as: OrderDetail.self)
    }

    public func complete(_ id: String, ifMatch version: String? = nil) async throws(ListServiceError) -> OrderDetail {
        try await transport.send("POST", itemPath(id, "/complete"), headers: ifMatch(version), as: OrderDetail.self)
    }

    public func cancel(_ id: String, ifMatch version: String? = nil) async throws(ListServiceError) -> OrderDetail {
        try await transport.send("POST", itemPath(id, "/cancel"), headers: ifMatch(version), as: OrderDetail.self)
    }

    /// Changes the customer's name and the parts of the address given (a JSON merge patch).
    public func update(
        _ id: String, customerName: String? = nil, shippingAddress: [String: String]? = nil, ifMatch version: String? = nil
    ) async throws(ListServiceError) -> OrderDetail {
        struct Patch: Encodable {
            var customerName: String?
            var shippingAddress: [String: String]?
        }
        return try await transport.send(
            "PATCH", itemPath(id), body: Patch(customerName: customerName, shippingAddress: shippingAddress),
            headers: ifMatch(version), as: OrderDetail.self)
    }

    public func delete(_ id: String, ifMatch version: String? = nil) async throws(ListServiceError) {
        try await transport.sendForData("DELETE", itemPath(id), headers: ifMatch(version))
    }

    /// What `bulk` does to each order: `complete` and `cancel` as their single writes, `delete` removes it.
    public enum BulkAction: String, Sendable {
        case complete, cancel, delete
    }

    /// One action on many orders at once (up to 500): each decided as its single write would be
    /// (its `ifMatch` included), every accepted change saved in one durable batch.
    public func bulk(_ action: BulkAction, _ items: [BulkItem]) async throws(ListServiceError) -> BulkResult<OrderDetail> {
        try await transport.bulk("orders", action.rawValue, items, display: display)
    }

    private func itemPath(_ id: String, _ action: String = "") -> String {
        "/orders/\(id.percentEncoded)\(action)" + display.query
    }
}
