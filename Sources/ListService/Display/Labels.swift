/// The few words a row shows, per language; English when a language is not covered.
struct Labels: Sendable {
    let freeShipping: String
    /// Put before the formatted shipping cost.
    let shippingPrefix: String
    let pending: String
    let completed: String
    let cancelled: String

    func status(_ status: OrderStatus) -> String {
        switch status {
        case .pending: pending
        case .completed: completed
        case .cancelled: cancelled
        }
    }

    static func forLocale(_ tag: String) -> Labels {
        let language = tag.split(separator: "-").first.map(String.init) ?? "en"
        return byLanguage[language] ?? english
    }

    static let english = Labels(
        freeShipping: "Free shipping", shippingPrefix: "Shipping: ", pending: "Pending", completed: "Completed",
        cancelled: "Cancelled")

    private static let byLanguage: [String: Labels] = [
        "en": english,
        "de": Labels(
            freeShipping: "Kostenloser Versand", shippingPrefix: "Versand: ", pending: "Offen", completed: "Abgeschlossen",
            cancelled: "Storniert"),
        "fr": Labels(
            freeShipping: "Livraison gratuite", shippingPrefix: "Livraison\u{00A0}: ", pending: "En attente",
            completed: "Terminée", cancelled: "Annulée"),
        "es": Labels(
            freeShipping: "Envío gratuito", shippingPrefix: "Envío: ", pending: "Pendiente", completed: "Completado",
            cancelled: "Cancelado"),
        "ja": Labels(freeShipping: "送料無料", shippingPrefix: "送料: ", pending: "保留中", completed: "完了", cancelled: "キャンセル済み"),
    ]
}
