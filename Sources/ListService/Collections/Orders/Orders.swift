import Foundation

/// The orders collection, declared for the engine: `GET /orders?filter=pending&q=john`.
package enum Orders: ListCollection {
    package typealias Item = Order
    package typealias View = OrderFilter
    package typealias SortField = OrderSortField

    /// What the filters read, in 16 bytes a slot (with the optional's tag).
    package struct FilterFields: Sendable {
        let date: Date
        let status: OrderStatus
        /// `Order.isHighValue`.
        let isHighValue: Bool
        /// Whether the total is more than zero.
        let hasValue: Bool
    }

    /// The client's current month, for `currentMonth` only (nil for every other filter, so
    /// they share results across time zones).
    package struct Scope: Hashable, Sendable, CustomStringConvertible {
        let currentMonth: Range<Date>?

        /// As reflection wrote it, without reflecting on each request: a list's fingerprint,
        /// which cursors carry, is made from it (`ReflectedRanges`).
        package var description: String {
            guard let currentMonth else { return "Scope(currentMonth: nil)" }
            return "Scope(currentMonth: Optional(\(ReflectedRanges.text(of: currentMonth))))"
        }
    }

    package static let name = "orders"
    package static let itemName = "order"
    package static let viewParameter: String? = "filter"
    package static let defaultView = OrderFilter.all
    package static let fileName = "orders.json"

    /// High-value lists are about money; every other list is about recency. Newest or
    /// largest first unless asked otherwise.
    package static func defaultSortField(for view: OrderFilter) -> OrderSortField { view == .highValue ? .total : .date }
    /// Descending (the newest first), but statuses in their own order: pending first.
    package static func defaultDirection(for field: OrderSortField, view: OrderFilter) -> SortDirection {
        field == .status ? .asc : .desc
    }

    package static func scope(
        for view: OrderFilter, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope> {
        guard view == .currentMonth else { return ResolvedScope(Scope(currentMonth: nil)) }
        let month = CalendarDays.month(containing: now, in: display.timeZoneIdentifier)
        return ResolvedScope(Scope(currentMonth: month), validUntil: month.upperBound)
    }

    package static func id(of order: Order) -> String { order.id }

    package static func filterFields(of order: Order) -> FilterFields {
        FilterFields(date: order.date, status: order.status, isHighValue: order.isHighValue, hasValue: order.totalInDollars.cents > 0)
    }

    package static func matches(_ fields: FilterFields, view: OrderFilter, scope: Scope) -> Bool {
        view.matches(fields, currentMonth: scope.currentMonth)
    }

    package static func holdsEveryItem(_ view: OrderFilter) -> Bool { view == .all }

    package static let searchableFields: [@Sendable (Order) -> String] = [{ $0.customerName }, { $0.title }]

    package static func sortValue(of order: Order, by field: OrderSortField) -> SortValue {
        switch field {
        case .date: .number(order.date.millisecondsSince1970)
        case .total: .number(order.totalInDollars.cents)  // amounts, not numbers: £9,893 is more than $8,902
        case .customer: .text(order.customerName)
        case .status: .ranked(order.status.rank, thenReversed: order.date.millisecondsSince1970)
        }
    }

    package static func sortsByText(_ field: OrderSortField) -> Bool { field == .customer }

    package static func owner(of order: Order) -> OwnerID { order.customer }

    /// A customer sees their own orders; staff and above, and an anonymous caller where one is
    /// let in, see every order.
    package static func readScope(for caller: Caller) -> AccessScope {
        guard let identity = caller.identity, !identity.role.isStaff else { return .everything }
        return .owner(OwnerID(identity.subject))
    }

    package static var isPublic: Bool { false }

    package static let translations = OrderPhrases.translations

    package static func writeRow(_ order: Order, in context: inout RowContext<OrderPhrases>, to json: inout JSONWriter) {
        OrderRow.write(order, managed: manages(in: context.access), formatting: &context.formatting, phrases: context.phrases, to: &json)
    }

    package static func writeDetail(_ order: Order, in context: inout RowContext<OrderPhrases>, to json: inout JSONWriter) {
        OrderRow.writeDetail(order, formatting: &context.formatting, to: &json)
    }

    package static func makeDefaultItems(anchor: Date) -> [Order] { DefaultOrders.make(anchor: anchor) }

    package static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> Order {
        try Order(json: value, path: path)
    }

    /// An order in the shared data format.
    package static func writeItem(_ order: Order, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", order.id)
        json.field("title", order.title)
        if let customerId = order.customer.text { json.field("customerId", customerId) }
        json.field("customerName", order.customerName)
        json.field("currency", order.currency.rawValue)
        json.field("total", decimalText: order.total.plainText)
        json.field("date", ISO8601.format(order.date))
        json.field("status", order.status.rawValue)
        json.key("items")
        json.beginArray()
        for item in order.items {
            json.beginObject()
            json.field("name", item.name)
            json.field("quantity", Int(item.quantity))
            json.field("unitPrice", decimalText: item.unitPrice.plainText)
            json.field("requiresSignature", item.requiresSignature)
            json.endObject()
        }
        json.endArray()
        json.key("shippingAddress")
        order.shippingAddress.write(to: &json)
        json.endObject()
    }

    /// Decodes `orders.json`, sharing the storage of what repeats (`OrderSharing`).
    package static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Order] {
        try JSONArrayDecoding.decode(file, id: \.id) {
            var sharing = OrderSharing()
            return { (value, path) throws(JSONFieldError) in sharing.share(try Order(json: value, path: path)) }
        }
    }
}
