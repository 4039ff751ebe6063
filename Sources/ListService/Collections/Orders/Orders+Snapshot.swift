import Foundation

/// Orders in the binary snapshot field by field: a million of them load without parsing JSON;
/// names, cities, streets and products are created once each, and equal lists of line items
/// share one array.
extension Orders {
    package static func writeSnapshotItem(_ order: Order, to snapshot: inout SnapshotWriter) {
        snapshot.text(order.id)
        snapshot.text(order.title)
        snapshot.sharedText(order.customerName)
        snapshot.sharedText(order.currency.rawValue)
        snapshot.int(order.total.cents)
        snapshot.double(order.date.timeIntervalSince1970)
        snapshot.sharedText(order.status.rawValue)
        snapshot.unsigned(UInt64(order.items.count))
        for item in order.items {
            snapshot.sharedText(item.name)
            snapshot.int(Int64(item.quantity))
            snapshot.int(item.unitPrice.cents)
            snapshot.bool(item.requiresSignature)
        }
        let address = order.shippingAddress
        snapshot.sharedText(address.street)
        snapshot.sharedText(address.city)
        snapshot.text(address.postalCode)
        snapshot.sharedText(address.country)
        snapshot.bool(address.isResidential)
        snapshot.sharedText(order.customer.text ?? "")
    }

    package static func makeSnapshotItemReader() -> (inout SnapshotReader) throws(SnapshotFormatError) -> Order {
        var sharing = OrderSharing()
        return { (snapshot: inout SnapshotReader) throws(SnapshotFormatError) in try readOrder(from: &snapshot, sharing: &sharing) }
    }

    private static func readOrder(from snapshot: inout SnapshotReader, sharing: inout OrderSharing) throws(SnapshotFormatError) -> Order {
        let id = try snapshot.text(), title = try snapshot.text(), customerName = try snapshot.sharedText()
        let currency = try snapshot.choice(Currency.self), total = Money(cents: try snapshot.int64())
        let date = Date(timeIntervalSince1970: try snapshot.double()), status = try snapshot.choice(OrderStatus.self)
        let itemCount = try snapshot.unsigned()
        var items: [OrderItem] = []
        items.reserveCapacity(Int(min(itemCount, 64)))
        for _ in 0..<itemCount {
            items.append(
                OrderItem(
                    name: try snapshot.sharedText(), quantity: try snapshot.int(Int32.self), unitPrice: Money(cents: try snapshot.int64()),
                    requiresSignature: try snapshot.bool()))
        }
        let address = ShippingAddress(
            street: try snapshot.sharedText(), city: try snapshot.sharedText(), postalCode: try snapshot.text(),
            country: try snapshot.sharedText(), isResidential: try snapshot.bool())
        return Order(
            id: id, title: title, customerName: customerName, currency: currency, total: total, date: date, status: status,
            items: sharing.share(items), shippingAddress: address,
            customer: snapshot.formatVersion >= 2 ? OwnerID(try snapshot.sharedText()) : .none)
    }
}
