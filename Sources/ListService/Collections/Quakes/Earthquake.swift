import Foundation

/// One earthquake as the USGS feeds describe it. Magnitude and place may be unknown.
package struct Earthquake: Sendable, Equatable {
    package var id: String
    package var magnitude: Double?
    package var place: String?
    package var time: Date
    /// When USGS last revised the event; a newer import replaces an older one.
    package var updated: Date
    package var longitude: Double
    package var latitude: Double
    package var depthKm: Double

    package init(
        id: String, magnitude: Double?, place: String?, time: Date, updated: Date, longitude: Double, latitude: Double,
        depthKm: Double
    ) {
        self.id = id
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.updated = updated
        self.longitude = longitude
        self.latitude = latitude
        self.depthKm = depthKm
    }

    /// The lower bound of each magnitude band after the first (below 2).
    static let bandFloors: [Double] = [2, 4, 6]

    /// The band of a magnitude, 0 (below 2) to 3 (6 and over), judged as the magnitude is
    /// shown, to a tenth: 5.97 reads "M 6.0" and is in the band from 6, not under 6.
    package static func band(ofMagnitude magnitude: Double) -> Int {
        let shownTenths = (magnitude * 10).rounded()
        return bandFloors.count { shownTenths >= $0 * 10 }
    }

    /// The radius of its map circle in points: larger for stronger quakes, never invisible.
    package var markerRadius: Double {
        guard let magnitude else { return 2 }
        return max(2, (magnitude * 4 * 10).rounded() / 10)
    }
}

extension Earthquake {
    /// Longest id and place accepted from a feed (USGS ids are about 12 bytes, places under 100 characters).
    static let maxIDBytes = 100
    static let maxPlaceLength = 500
    /// Magnitudes a feed may give: USGS documents -1 to 10; beyond a margin a value is an error,
    /// not an earthquake (and would overflow the sort key and the shown tenth).
    static let magnitudeRange: ClosedRange<Double> = -10...12
    /// Times a feed may give, in milliseconds since 1970: the years 1 to 9999, which every
    /// date the service shows, sorts or keeps can hold.
    static let millisecondsRange: ClosedRange<Double> = -62_135_596_800_000...253_402_300_799_999

    /// Decodes one GeoJSON feature of a USGS feed; unknown properties are ignored.
    package init(feature: JSONValue, path: String) throws(JSONFieldError) {
        let fields = try JSONFields(feature, path: path)
        let properties = try fields.fields("properties")
        let geometry = try fields.fields("geometry")
        let coordinates = try geometry.array("coordinates")
        let coordinatesPath = geometry.fieldPath("coordinates")
        guard coordinates.count >= 3 else {
            throw JSONFieldError(path: coordinatesPath, reason: "expected [longitude, latitude, depth]")
        }
        func coordinate(_ index: Int, _ range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
            guard case .number(let number) = coordinates[index], let value = number.double, range.contains(value) else {
                throw JSONFieldError(path: "\(coordinatesPath)[\(index)]", reason: "expected a number in \(range)")
            }
            return value
        }
        func milliseconds(_ key: String) throws(JSONFieldError) -> Date {
            let number = try properties.number(key)
            guard let value = number.double, Self.millisecondsRange.contains(value) else {
                let reason = "expected milliseconds since 1970, of a time in the years 1 to 9999"
                throw JSONFieldError(path: properties.fieldPath(key), reason: reason)
            }
            return Date(millisecondsSince1970: value)
        }
        func magnitude() throws(JSONFieldError) -> Double? {
            guard let number = try properties.optionalNumber("mag") else { return nil }
            guard let value = number.double, Self.magnitudeRange.contains(value) else {
                throw JSONFieldError(path: properties.fieldPath("mag"), reason: "expected a magnitude in \(Self.magnitudeRange)")
            }
            return value
        }
        let id = try fields.string("id")
        guard !id.isEmpty, id.utf8.count <= Self.maxIDBytes else {
            throw JSONFieldError(path: fields.fieldPath("id"), reason: "must be 1 to \(Self.maxIDBytes) bytes")
        }
        let place = try properties.optionalString("place")
        if let place, place.unicodeScalars.count > Self.maxPlaceLength {
            throw JSONFieldError(path: properties.fieldPath("place"), reason: "is longer than \(Self.maxPlaceLength) characters")
        }
        self.init(
            id: id, magnitude: try magnitude(),
            place: place, time: try milliseconds("time"), updated: try milliseconds("updated"),
            longitude: try coordinate(0, -180...180), latitude: try coordinate(1, -90...90), depthKm: try coordinate(2, -100...1000))
    }
}
