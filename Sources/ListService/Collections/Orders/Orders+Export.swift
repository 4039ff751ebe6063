/// The columns of an orders export: the row's display fields for a spreadsheet, the stored
/// values (ISO dates, plain amounts in the order's currency) for a machine.
extension Orders {
    package static let exportColumns = [
        .id,
        ExportColumn("title", en: "Title", de: "Titel", fr: "Titre", es: "Título", ja: "件名"),
        ExportColumn("customerName", en: "Customer", de: "Kunde", fr: "Client", es: "Cliente", ja: "顧客"),
        ExportColumn("statusLabel", en: "Status", de: "Status", fr: "Statut", es: "Estado", ja: "ステータス"),
        ExportColumn("formattedTotal", en: "Total", de: "Summe", fr: "Total", es: "Total", ja: "合計"),
        ExportColumn("formattedDate", en: "Date", de: "Datum", fr: "Date", es: "Fecha", ja: "日付"),
        ExportColumn("shippingLabel", en: "Shipping", de: "Versand", fr: "Livraison", es: "Envío", ja: "送料"),
        ExportColumn(
            "requiresSignature", en: "Signature required", de: "Unterschrift nötig", fr: "Signature requise", es: "Requiere firma",
            ja: "署名が必要"),
        ExportColumn("isHighValue", en: "High value", de: "Hoher Wert", fr: "Valeur élevée", es: "Alto valor", ja: "高額"),
    ]

    package static let rawExportFields = [
        "id", "title", "customerId", "customerName", "status", "currency", "total", "shippingCost", "date", "requiresSignature",
        "isHighValue",
    ]

    package static func writeRawRow(_ order: Order, to json: inout JSONWriter) {
        json.field("id", order.id)
        json.field("title", order.title)
        json.field("customerId", order.customer.text)
        json.field("customerName", order.customerName)
        json.field("status", order.status.rawValue)
        json.field("currency", order.currency.rawValue)
        json.field("total", decimalText: order.total.plainText)
        json.field("shippingCost", decimalText: order.shippingCost.plainText)
        json.field("date", ISO8601.format(order.date))
        json.field("requiresSignature", order.requiresSignature)
        json.field("isHighValue", order.isHighValue)
    }
}
