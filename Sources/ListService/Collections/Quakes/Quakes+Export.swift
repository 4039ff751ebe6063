/// The columns of an earthquakes export: the row's display fields for a spreadsheet, the
/// feed's values (ISO times) for a machine.
extension Quakes {
    package static let exportColumns = [
        .id,
        ExportColumn("place", en: "Place", de: "Ort", fr: "Lieu", es: "Lugar", ja: "場所"),
        ExportColumn("formattedTime", en: "Time", de: "Zeit", fr: "Heure", es: "Hora", ja: "時刻"),
        ExportColumn("formattedMagnitude", en: "Magnitude", de: "Magnitude", fr: "Magnitude", es: "Magnitud", ja: "マグニチュード"),
        ExportColumn("formattedDepth", en: "Depth", de: "Tiefe", fr: "Profondeur", es: "Profundidad", ja: "深さ"),
        ExportColumn("latitude", en: "Latitude", de: "Breite", fr: "Latitude", es: "Latitud", ja: "緯度"),
        ExportColumn("longitude", en: "Longitude", de: "Länge", fr: "Longitude", es: "Longitud", ja: "経度"),
    ]

    package static let rawExportFields = ["id", "place", "magnitude", "depthKm", "latitude", "longitude", "time", "updated"]

    package static func writeRawRow(_ quake: Earthquake, to json: inout JSONWriter) {
        json.field("id", quake.id)
        json.field("place", quake.place)
        json.field("magnitude", quake.magnitude)
        json.field("depthKm", quake.depthKm)
        json.field("latitude", quake.latitude)
        json.field("longitude", quake.longitude)
        json.field("time", ISO8601.format(quake.time))
        json.field("updated", ISO8601.format(quake.updated))
    }
}
