import Foundation

/// The earthquakes collection, declared for the engine: the quakes of one day in the
/// client's time zone whose place contains `q`, as a list (`/quakes`) and as map markers
/// (`/quakes/map`) over one shared predicate.
package enum Quakes: ListCollection {
    package typealias Item = Earthquake

    /// Earthquakes have one view; the day and `q` choose among them.
    package enum View: String, ListChoice {
        case all
    }

    package enum SortField: String, ListChoice {
        case time, magnitude
    }

    /// What the day's list and its counts read.
    package struct FilterFields: Sendable {
        let time: Date
        let magnitude: Double?
    }

    /// The requested day in the client's time zone.
    package struct Scope: Hashable, Sendable, CustomStringConvertible {
        let day: Range<Date>

        /// As reflection wrote it, without reflecting on each request: list fingerprints are
        /// made from it (`ReflectedRanges`).
        package var description: String { "Scope(day: \(ReflectedRanges.text(of: day)))" }
    }

    package static let name = "quakes"
    package static let itemName = "earthquake"
    package static let viewParameter: String? = nil
    package static let defaultView = View.all
    package static let fileName = "quakes.geojson"
    package static let scopeParameters = ["date"]
    package static let directionAliases: [String: SortDirection] = ["forward": .asc, "reverse": .desc]
    package static let markerSort: (field: SortField, direction: SortDirection)? = (.magnitude, .desc)

    package static func defaultSortField(for view: View) -> SortField { .time }
    package static func defaultDirection(for field: SortField, view: View) -> SortDirection { .desc }

    /// `date=YYYY-MM-DD` in the client's zone; without it, today there (stale at midnight).
    package static func scope(
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

    package static func id(of quake: Earthquake) -> String { quake.id }
    package static func filterFields(of quake: Earthquake) -> FilterFields { FilterFields(time: quake.time, magnitude: quake.magnitude) }

    /// The one predicate list and map share: on the day.
    package static func matches(_ fields: FilterFields, view: View, scope: Scope) -> Bool { scope.day.contains(fields.time) }

    package static let searchableFields: [@Sendable (Earthquake) -> String] = [{ $0.place ?? "" }]

    package static func sortValue(of quake: Earthquake, by field: SortField) -> SortValue {
        switch field {
        case .time: .number(quake.time.millisecondsSince1970)
        // Unknown magnitudes sort below every known one.
        case .magnitude: .number(quake.magnitude.map { Int64(($0 * 1000).rounded()) } ?? Int64.min)
        }
    }

    package static func sortsByText(_ field: SortField) -> Bool { false }

    package static let translations = QuakePhrases.translations

    package static func writeRow(_ quake: Earthquake, in context: inout RowContext<QuakePhrases>, to json: inout JSONWriter) {
        json.field("id", quake.id)
        json.field("place", quake.place ?? context.phrases.unknownLocation)
        json.field("formattedTime", context.formatting.mediumDateTime(quake.time))
        json.field("magnitude", quake.magnitude)
        json.field("formattedMagnitude", formattedMagnitude(quake, context.formatting))
        json.field("magnitudeBand", magnitudeBand(of: quake))
        json.field("depthKm", quake.depthKm)
        json.field("formattedDepth", formattedDepth(quake, context.formatting))
        json.field("latitude", quake.latitude)
        json.field("longitude", quake.longitude)
    }

    /// Every feed field a detail view shows beyond the row: the raw time, and when the feed
    /// last updated the event (raw and formatted).
    package static func writeDetail(_ quake: Earthquake, in context: inout RowContext<QuakePhrases>, to json: inout JSONWriter) {
        json.field("time", ISO8601.format(quake.time))
        json.field("updated", ISO8601.format(quake.updated))
        json.field("formattedUpdated", context.formatting.mediumDateTime(quake.updated))
    }

    /// A marker: where to draw it, how large, and what its callout shows.
    package static func writeMarker(_ quake: Earthquake, in context: inout RowContext<QuakePhrases>, to json: inout JSONWriter) {
        json.field("id", quake.id)
        json.field("latitude", quake.latitude)
        json.field("longitude", quake.longitude)
        json.field("magnitude", quake.magnitude)
        json.field("markerRadius", quake.markerRadius)
        json.field("place", quake.place ?? context.phrases.unknownLocation)
        json.field("formattedMagnitude", formattedMagnitude(quake, context.formatting))
        json.field("magnitudeBand", magnitudeBand(of: quake))
        json.field("formattedTime", context.formatting.mediumDateTime(quake.time))
        json.field("formattedDepth", formattedDepth(quake, context.formatting))
    }

    /// "M 4.3" with the locale's decimal separator; "M ?" when the feed has no magnitude.
    private static func formattedMagnitude(_ quake: Earthquake, _ formatting: DisplayFormatters.Formatting) -> String {
        quake.magnitude.map { "M " + formatting.oneDecimal($0) } ?? "M ?"
    }

    /// "10 km", "10,5 km": to a tenth, the decimal only when there is one, in the locale's form.
    private static func formattedDepth(_ quake: Earthquake, _ formatting: DisplayFormatters.Formatting) -> String {
        let tenths = (quake.depthKm * 10).rounded()
        let number = tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int64(tenths / 10)) : formatting.oneDecimal(quake.depthKm)
        return number + " km"
    }

    package static func makeDefaultItems(anchor: Date) -> [Earthquake] { DefaultQuakes.make(anchor: anchor) }

    package static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> Earthquake {
        try Earthquake(feature: value, path: path)
    }

    /// An earthquake as a GeoJSON feature in the USGS format.
    package static func writeItem(_ quake: Earthquake, to json: inout JSONWriter) {
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
    package static func encodeDataFile(_ quakes: [Earthquake]) -> [UInt8] {
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
    package static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Earthquake] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(Array(file.bytes))
        } catch {
            throw DataLoadError(file: file.name, reason: error.description)
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
            throw DataLoadError(file: file.name, reason: error.description)
        }
    }
}
