/// The words rows show, per language; English when a language is not covered. Amounts and
/// dates are formatted by Foundation for every locale; these few phrases are ours.
public struct Labels: Sendable {
    let freeShipping: String
    /// Put before the formatted shipping cost.
    let shippingPrefix: String
    let orderStatuses: [OrderStatus: String]
    let priorities: [TaskPriority: String]
    let dueToday: String
    let dueTomorrow: String
    let dueInDays: @Sendable (Int) -> String
    let overdueByDays: @Sendable (Int) -> String
    let unknownLocation: String

    func status(_ status: OrderStatus) -> String { orderStatuses[status] ?? status.rawValue }
    func priority(_ priority: TaskPriority) -> String { priorities[priority] ?? priority.rawValue }

    /// "Due today", "Due tomorrow", "Due in 3 days", "Overdue by 2 days": `days` from today
    /// to the due day, in calendar days of the client's zone.
    func due(inDays days: Int) -> String {
        switch days {
        case 0: dueToday
        case 1: dueTomorrow
        case 2...: dueInDays(days)
        default: overdueByDays(-days)
        }
    }

    static func forLocale(_ tag: String) -> Labels {
        let language = tag.split(separator: "-").first.map(String.init) ?? "en"
        return byLanguage[language] ?? english
    }

    static let english = Labels(
        freeShipping: "Free shipping", shippingPrefix: "Shipping: ",
        orderStatuses: [.pending: "Pending", .completed: "Completed", .cancelled: "Cancelled"],
        priorities: [.low: "Low", .medium: "Medium", .high: "High", .urgent: "Urgent"],
        dueToday: "Due today", dueTomorrow: "Due tomorrow", dueInDays: { "Due in \($0) days" },
        overdueByDays: { $0 == 1 ? "Overdue by 1 day" : "Overdue by \($0) days" }, unknownLocation: "Unknown location")

    private static let byLanguage: [String: Labels] = [
        "en": english,
        "de": Labels(
            freeShipping: "Kostenloser Versand", shippingPrefix: "Versand: ",
            orderStatuses: [.pending: "Offen", .completed: "Abgeschlossen", .cancelled: "Storniert"],
            priorities: [.low: "Niedrig", .medium: "Mittel", .high: "Hoch", .urgent: "Dringend"],
            dueToday: "Heute fällig", dueTomorrow: "Morgen fällig", dueInDays: { "Fällig in \($0) Tagen" },
            overdueByDays: { $0 == 1 ? "Seit 1 Tag überfällig" : "Seit \($0) Tagen überfällig" },
            unknownLocation: "Unbekannter Ort"),
        "fr": Labels(
            freeShipping: "Livraison gratuite", shippingPrefix: "Livraison\u{00A0}: ",
            orderStatuses: [.pending: "En attente", .completed: "Terminée", .cancelled: "Annulée"],
            priorities: [.low: "Basse", .medium: "Moyenne", .high: "Haute", .urgent: "Urgente"],
            dueToday: "À rendre aujourd’hui", dueTomorrow: "À rendre demain", dueInDays: { "À rendre dans \($0) jours" },
            overdueByDays: { $0 == 1 ? "En retard de 1 jour" : "En retard de \($0) jours" }, unknownLocation: "Lieu inconnu"),
        "es": Labels(
            freeShipping: "Envío gratuito", shippingPrefix: "Envío: ",
            orderStatuses: [.pending: "Pendiente", .completed: "Completado", .cancelled: "Cancelado"],
            priorities: [.low: "Baja", .medium: "Media", .high: "Alta", .urgent: "Urgente"],
            dueToday: "Vence hoy", dueTomorrow: "Vence mañana", dueInDays: { "Vence en \($0) días" },
            overdueByDays: { $0 == 1 ? "Vencida hace 1 día" : "Vencida hace \($0) días" }, unknownLocation: "Ubicación desconocida"),
        "ja": Labels(
            freeShipping: "送料無料", shippingPrefix: "送料: ",
            orderStatuses: [.pending: "保留中", .completed: "完了", .cancelled: "キャンセル済み"],
            priorities: [.low: "低", .medium: "中", .high: "高", .urgent: "緊急"],
            dueToday: "今日が期限", dueTomorrow: "明日が期限", dueInDays: { "\($0)日後が期限" },
            overdueByDays: { "\($0)日超過" }, unknownLocation: "場所不明"),
    ]
}
