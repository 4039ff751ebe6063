/// The display row of an order: every value formatted for the client, every flag evaluated;
/// and its detail, for a detail screen and an edit form.
enum OrderRow {
    /// The row; `managed`: whether its readers manage orders (complete and delete any: their role).
    static func write(
        _ order: Order, managed: Bool, formatting: inout DisplayFormatters.Formatting, phrases: OrderPhrases, to json: inout JSONWriter
    ) {
        json.field("id", order.id)
        json.field("title", order.title)
        json.field("customerName", order.customerName)
        json.field("status", order.status.rawValue)
        json.field("statusLabel", phrases.status(order.status))
        json.field("formattedTotal", formatting.money(order.total, currency: order.currency))
        json.field("formattedDate", formatting.mediumDate(order.date))
        if order.isShippingFree {
            json.field("shippingLabel", phrases.freeShipping)
        } else {
            json.key("shippingLabel")
            json.string(phrases.shippingPrefix, formatting.money(order.shippingCost, currency: order.currency))
        }
        json.field("requiresSignature", order.requiresSignature)
        json.field("isHighValue", order.isHighValue)
        json.field("canComplete", managed && order.status.isOpen)
        json.field("canCancel", order.status.isOpen)
        json.field("canDelete", managed)
    }

    /// Beyond the row: the items with their prices, the shipping address (as fields and as
    /// the lines of a label), and the raw values an edit form pre-fills.
    static func writeDetail(_ order: Order, formatting: inout DisplayFormatters.Formatting, to json: inout JSONWriter) {
        json.field("currency", order.currency.rawValue)
        json.field("total", order.total.plainText)
        json.field("date", ISO8601.format(order.date))
        json.key("items")
        json.beginArray()
        for item in order.items {
            json.beginObject()
            json.field("name", item.name)
            json.field("quantity", Int(item.quantity))
            json.field("unitPrice", item.unitPrice.plainText)
            json.field("formattedUnitPrice", formatting.money(item.unitPrice, currency: order.currency))
            json.field("formattedLineTotal", formatting.money(item.lineTotal, currency: order.currency))
            json.field("requiresSignature", item.requiresSignature)
            json.endObject()
        }
        json.endArray()
        json.key("shippingAddress")
        order.shippingAddress.write(to: &json)
        json.field(
            "formattedAddress", AddressFormat.lines(of: order.shippingAddress, locale: formatting.locale).joined(separator: "\n"))
    }
}
