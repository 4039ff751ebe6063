/// The display row of an order: every value formatted for the client, every flag evaluated.
enum OrderRow {
    static func write(_ order: Order, formatting: inout DisplayFormatters.Formatting, phrases: OrderPhrases, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", order.id)
        json.field("title", order.title)
        json.field("customerName", order.customerName)
        json.field("status", order.status.rawValue)
        json.field("statusLabel", phrases.status(order.status))
        json.field("formattedTotal", formatting.money(order.total, currency: order.currency))
        json.field("formattedDate", formatting.mediumDate(order.date))
        json.key("shippingLabel")
        json.string(
            order.isShippingFree
                ? phrases.freeShipping : phrases.shippingPrefix + formatting.money(order.shippingCost, currency: order.currency))
        json.field("requiresSignature", order.requiresSignature)
        json.field("isHighValue", order.isHighValue)
        json.endObject()
    }
}
