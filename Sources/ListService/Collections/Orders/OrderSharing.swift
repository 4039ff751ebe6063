/// Shares the storage of what repeats across orders as they load: names, currencies, streets,
/// cities, products, and whole lists of line items (most orders hold one or two lines, and a
/// shop sells the same baskets again and again). At a million orders the line items are the
/// largest part of the data; shared, they take a fraction of it.
struct OrderSharing {
    private var strings = Interner<String>()
    private var lines = Interner<[OrderItem]>()

    /// `order` with its repeated parts replaced by shared copies.
    mutating func share(_ order: Order) -> Order {
        var order = order
        order.customerName = strings.intern(order.customerName)
        order.shippingAddress.street = strings.intern(order.shippingAddress.street)
        order.shippingAddress.city = strings.intern(order.shippingAddress.city)
        order.shippingAddress.country = strings.intern(order.shippingAddress.country)
        order.items = lines.intern(
            order.items.map { item in
                var item = item
                item.name = strings.intern(item.name)
                return item
            })
        return order
    }

    /// `items` shared with earlier orders that hold the same lines (their strings are shared
    /// already, as the snapshot's text table shares them).
    mutating func share(_ items: [OrderItem]) -> [OrderItem] { lines.intern(items) }
}
