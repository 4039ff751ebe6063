/// The words order rows show, per language.
package struct OrderPhrases: Sendable {
    let freeShipping: String
    /// Put before the formatted shipping cost.
    let shippingPrefix: String
    let statuses: [OrderStatus: String]

    func status(_ status: OrderStatus) -> String { statuses[status] ?? status.rawValue }

    static let translations = Translations(
        english: OrderPhrases(
            freeShipping: "Free shipping", shippingPrefix: "Shipping: ",
            statuses: [.pending: "Pending", .completed: "Completed", .cancelled: "Cancelled"]),
        [
            "de": OrderPhrases(
                freeShipping: "Kostenloser Versand", shippingPrefix: "Versand: ",
                statuses: [.pending: "Offen", .completed: "Abgeschlossen", .cancelled: "Storniert"]),
            "fr": OrderPhrases(
                freeShipping: "Livraison gratuite", shippingPrefix: "Livraison\u{00A0}: ",
                statuses: [.pending: "En attente", .completed: "Terminée", .cancelled: "Annulée"]),
            "es": OrderPhrases(
                freeShipping: "Envío gratuito", shippingPrefix: "Envío: ",
                statuses: [.pending: "Pendiente", .completed: "Completado", .cancelled: "Cancelado"]),
            "ja": OrderPhrases(
                freeShipping: "送料無料", shippingPrefix: "送料: ",
                statuses: [.pending: "保留中", .completed: "完了", .cancelled: "キャンセル済み"]),
        ])
}
