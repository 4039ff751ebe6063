/// The display row of an order: every value formatted for the client, every flag evaluated.
enum OrderRow {
    static func write(_ order: Order, formatting: inout DisplayFormatters.Formatting, labels: Labels, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id")
        json.string(order.id)
        json.key("title")
        json.string(order.title)
        json.key("customerName")
        json.string(order.customerName)
        json.key("status")
        json.string(order.status.rawValue)
        json.key("statusLabel")
        json.string(labels.status(order.status))
        json.key("formattedTotal")
        json.string(formatting.money(order.total, currency: order.currency))
        json.key("formattedDate")
        json.string(formatting.mediumDate(order.date))
        json.key("shippingLabel")
        json.string(
            order.isShippingFree
                ? labels.freeShipping : labels.shippingPrefix + formatting.money(order.shippingCost, currency: order.currency))
        json.key("requiresSignature")
        json.bool(order.requiresSignature)
        json.key("isHighValue")
        json.bool(order.isHighValue)
        json.endObject()
    }
}
