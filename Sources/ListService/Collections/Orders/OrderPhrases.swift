/// The words order rows show, per language.
package struct OrderPhrases: Sendable {
    let freeShipping: String
    /// Put before the formatted shipping cost.
    let shippingPrefix: String
    let pending: String
    let completed: String
    let cancelled: String

    init(freeShipping: String, shippingPrefix: String, statuses: [OrderStatus: String]) {
        self.freeShipping = freeShipping
        self.shippingPrefix = shippingPrefix
        pending = statuses[.pending] ?? OrderStatus.pending.rawValue
        completed = statuses[.completed] ?? OrderStatus.completed.rawValue
        cancelled = statuses[.cancelled] ?? OrderStatus.cancelled.rawValue
    }

    /// The status's label, without a dictionary lookup on every row.
    func status(_ status: OrderStatus) -> String {
        switch status {
        case .pending: pending
        case .completed: completed
        case .cancelled: cancelled
        }
    }

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
