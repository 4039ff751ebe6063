/// One earthquake as the list shows it.
public struct QuakeRow: ListRow {
    public var id: String
    /// "Unknown location" when the feed has none.
    public var place: String
    public var formattedTime: String
    /// Nil when the feed did not say ("M ?").
    public var magnitude: Double?
    public var formattedMagnitude: String
    /// The count it is in (`under2`, `2to4`, `4to6`, `6plus`), judged as shown; nil when unknown.
    public var magnitudeBand: String?
    public var depthKm: Double
    public var formattedDepth: String
    public var latitude: Double
    public var longitude: Double
    public var version: String
    public var sectionKey: String?
}

/// One earthquake on the map: where, how large to draw it, and what its callout says.
public struct QuakeMarker: ListRow {
    public var id: String
    public var latitude: Double
    public var longitude: Double
    public var magnitude: Double?
    /// 4 points per unit of magnitude, at least 2.
    public var markerRadius: Double
    public var place: String
    public var formattedMagnitude: String
    /// As in the list's row.
    public var magnitudeBand: String?
    public var formattedTime: String
    public var formattedDepth: String
}

/// One earthquake in full: its row and the feed's times.
public struct QuakeDetail: Decodable, Sendable, Equatable, Identifiable {
    /// What the list shows of it (the detail carries every field of its row).
    public var row: QuakeRow
    /// ISO 8601.
    public var time: String
    public var updated: String
    public var formattedUpdated: String

    public var id: String { row.id }

    private enum CodingKeys: String, CodingKey { case time, updated, formattedUpdated }

    public init(from decoder: any Decoder) throws {
        row = try QuakeRow(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(String.self, forKey: .time)
        updated = try container.decode(String.self, forKey: .updated)
        formattedUpdated = try container.decode(String.self, forKey: .formattedUpdated)
    }
}
