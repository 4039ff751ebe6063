import Foundation

/// The earthquakes collection, declared for the engine: the quakes of one day in the
/// client's time zone whose place contains `q`, as a list (`/quakes`) and as map markers
/// (`/quakes/map`) over one shared predicate.
public enum Quakes: ListCollection {
    public typealias Item = Earthquake

    /// Earthquakes have one view; the day and `q` choose among them.
    public enum View: String, ListChoice {
        case all
    }

    public enum SortField: String, ListChoice {
        case time, magnitude
    }

    public typealias FilterFields = Date

    /// The requested day in the client's time zone.
    public struct Scope: Hashable, Sendable {
        let day: Range<Date>
    }

    public static let name = "quakes"
    public static let itemName = "earthquake"
    public static let viewParameter: String? = nil
    public static let defaultView = View.all
    public static let fileName = "quakes.geojson"
    public static let scopeParameters = ["date"]
    public static let directionAliases: [String: SortDirection] = ["forward": .asc, "reverse": .desc]
    public static let markerSort: (field: SortField, direction: SortDirection)? = (.magnitude, .desc)

    public static func defaultSortField(for view: View) -> SortField { .time }
    public static func defaultDirection(for field: SortField, view: View) -> SortDirection { .desc }

    /// `date=YYYY-MM-DD` in the client's zone; without it, today there (stale at midnight).
    public static func scope(
        for view: View, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope> {
        let zone = display.timeZoneIdentifier
        guard let text = parameters.string("date") else {
            let today = CalendarDays.day(containing: now, in: zone)
            return ResolvedScope(
                Scope(day: today), validUntil: today.upperBound, appliedParameters: ["date": CalendarDays.dayName(of: now, in: zone)])
        }
        guard let day = CalendarDays.day(named: text, in: zone) else {
            throw .invalidParameter("date", "'\(text)' is not a date in the form YYYY-MM-DD.")
        }
        return ResolvedScope(Scope(day: day), appliedParameters: ["date": text])
    }

    public static func id(of quake: Earthquake) -> String { quake.id }
    public static func filterFields(of quake: Earthquake) -> Date { quake.time }

    /// The one predicate list and map share: on the day.
    public static func matches(_ time: Date, view: View, scope: Scope) -> Bool { scope.day.contains(time) }

    public static func searchableText(of quake: Earthquake) -> [String] { [quake.place ?? ""] }

    public static func sortKey(of quake: Earthquake, by field: SortField) -> SortKey {
        switch field {
        case .time: .number(quake.time.millisecondsSince1970)
        // Unknown magnitudes sort below every known one.
        case .magnitude: .number(quake.magnitude.map { Int64(($0 * 1000).rounded()) } ?? Int64.min)
        }
    }

    public static let translations = QuakePhrases.translations

    public static func writeRow(_ quake: Earthquake, in context: inout RowContext<QuakePhrases>, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", quake.id)
        json.field("place", quake.place ?? context.phrases.unknownLocation)
        json.field("formattedTime", context.formatting.mediumDateTime(quake.time))
        json.field("magnitude", quake.magnitude)
        json.field("formattedMagnitude", quake.magnitude.map { "M " + context.formatting.oneDecimal($0) } ?? "M ?")
        json.field("depthKm", quake.depthKm)
        json.field("latitude", quake.latitude)
        json.field("longitude", quake.longitude)
        json.endObject()
    }

    public static func writeMarker(_ quake: Earthquake, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", quake.id)
        json.field("latitude", quake.latitude)
        json.field("longitude", quake.longitude)
        json.field("magnitude", quake.magnitude)
        json.field("markerRadius", quake.markerRadius)
        json.endObject()
    }

    public static func makeDefaultItems(anchor: Date) -> [Earthquake] { DefaultQuakes.make(anchor: anchor) }

    public static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> Earthquake {
        try Earthquake(feature: value, path: path)
    }

    /// An earthquake as a GeoJSON feature in the USGS format.
    public static func writeItem(_ quake: Earthquake, to json: inout JSONWriter) {
        json.beginObject()
        json.field("type", "Feature")
        json.field("id", quake.id)
        json.key("properties")
        json.beginObject()
        json.field("mag", quake.magnitude)
        json.field("place", quake.place)
        json.field("time", decimalText: String(quake.time.millisecondsSince1970))
        json.field("updated", decimalText: String(quake.updated.millisecondsSince1970))
        json.endObject()
        json.key("geometry")
        json.beginObject()
        json.field("type", "Point")
        json.key("coordinates")
        json.beginArray()
        json.number(quake.longitude)
        json.number(quake.latitude)
        json.number(quake.depthKm)
        json.endArray()
        json.endObject()
        json.endObject()
    }

    /// A USGS FeatureCollection of `quakes`.
    public static func encodeDataFile(_ quakes: [Earthquake]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 300 * quakes.count)
        json.beginObject()
        json.field("type", "FeatureCollection")
        json.key("features")
        json.beginArray()
        for quake in quakes { writeItem(quake, to: &json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    /// Decodes a USGS FeatureCollection.
    public static func decodeItems(_ bytes: UnsafeRawBufferPointer, file: String) throws(DataLoadError) -> [Earthquake] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(bytes))
        } catch {
            throw DataLoadError(file: file, reason: error.description)
        }
        do throws(JSONFieldError) {
            let collection = try JSONFields(document, path: "")
            var quakes: [Earthquake] = []
            var ids = UniqueIDs()
            for (index, feature) in try collection.array("features").enumerated() {
                let quake = try Earthquake(feature: feature, path: "features[\(index)]")
                try ids.claim(quake.id, at: "features[\(index)]", item: "feature")
                quakes.append(quake)
            }
            return quakes
        } catch {
            throw DataLoadError(file: file, reason: error.description)
        }
    }
}
