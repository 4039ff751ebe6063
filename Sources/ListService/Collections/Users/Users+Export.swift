/// The columns of a users export: the row's display fields for a spreadsheet, the stored
/// values for a machine.
extension Users {
    package static let exportColumns = [
        .id,
        ExportColumn("name", en: "Name", de: "Name", fr: "Nom", es: "Nombre", ja: "名前"),
        ExportColumn("tapsLabel", en: "Taps", de: "Tipps", fr: "Appuis", es: "Toques", ja: "タップ"),
    ]

    package static let rawExportFields = ["id", "name", "taps"]

    package static func writeRawRow(_ user: User, to json: inout JSONWriter) {
        json.field("id", user.id)
        json.field("name", user.name)
        json.field("taps", user.taps)
    }
}
