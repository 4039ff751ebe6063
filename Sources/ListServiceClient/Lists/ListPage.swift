/// A list's answer: a page of rows and what a screen shows around them.
public struct ListPage<Row: ListRow>: Decodable, Sendable {
    public var items: [Row]
    /// Items in the whole list, and the number as the locale writes it ("1,370", "1.370").
    public var total: Int
    public var formattedTotal: String
    /// Opens the page after this one; nil on the last.
    public var nextCursor: String?
    /// The rank of the page's first row in the whole list (lists, not maps).
    public var index: Int?
    public var itemsBefore: Int?
    public var itemsAfter: Int?
    /// How many items each filter chip would hold under the same search, and the same
    /// numbers formatted for the locale.
    public var counts: [String: Int]
    public var formattedCounts: [String: String]
    /// Every section of the whole list, when it is grouped.
    public var sections: [Section]?
    /// The criteria as the service applied them, defaults filled in.
    public var criteria: [String: JSONValue]
    /// The earthquake lists' selected item.
    public var selectedId: String?
}

/// A grouped list's section header.
public struct Section: Codable, Sendable, Equatable, Identifiable {
    public var key: String
    public var title: String
    public var subtitle: String?
    public var count: Int
    public var formattedCount: String
    /// The rank of its first row in the whole list.
    public var firstIndex: Int
    /// Opens a page at its first row (empty for the first section).
    public var cursor: String
    public var summary: String?

    public var id: String { key }
}

/// Any JSON value (the criteria an answer echoes).
public enum JSONValue: Codable, Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
