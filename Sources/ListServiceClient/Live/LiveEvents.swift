import Foundation

/// The `data` of a live list's events, as the service sends them (see `LiveSnapshot`,
/// `LiveDelta` and `LiveOp` in openapi.yaml).

/// A `snapshot` or `reset`: the window whole.
struct LiveSnapshot<Row: ListRow>: Decodable {
    var list: String?
    var items: [Row]
    var total: Int
    var formattedTotal: String
    var nextCursor: String?
    var index: Int?
    var counts: [String: Int]?
    var formattedCounts: [String: String]?
    var sections: [Section]?
    var criteria: [String: JSONValue]?
    var v: Int
    var reason: String?
    /// The session's selection (earthquake lists and maps).
    var selectedId: String?
}

/// A `selection`: the session's selected item, changed in one of its clients.
struct LiveSelection: Decodable {
    var selectedId: String?
}

/// A `delta`: what changed since the event whose `v` is `base`.
struct LiveDelta<Row: ListRow>: Decodable {
    /// A section that changed, or a new one with the key of the section before it.
    struct SectionChange: Decodable {
        var section: Section
        /// Present for a new section: the key it follows (nil: it comes first).
        var after: String??

        private enum CodingKeys: String, CodingKey { case after }

        init(from decoder: any Decoder) throws {
            section = try Section(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            after = container.contains(.after) ? .some(try container.decodeIfPresent(String.self, forKey: .after)) : .none
        }
    }

    var list: String?
    var v: Int
    var base: Int
    /// The commit's time, milliseconds since 1970.
    var at: Int64?
    var total: Int
    var formattedTotal: String
    /// Present (possibly null) only when it changed.
    var nextCursor: String??
    var index: Int?
    var counts: [String: Int]?
    var formattedCounts: [String: String]?
    var sections: [SectionChange]?
    var removedSections: [String]?
    var ops: [LiveOp<Row>]

    private enum CodingKeys: String, CodingKey {
        case list, v, base, at, total, formattedTotal, nextCursor, index, counts, formattedCounts, sections, removedSections, ops
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        list = try container.decodeIfPresent(String.self, forKey: .list)
        v = try container.decode(Int.self, forKey: .v)
        base = try container.decode(Int.self, forKey: .base)
        at = try container.decodeIfPresent(Int64.self, forKey: .at)
        total = try container.decode(Int.self, forKey: .total)
        formattedTotal = try container.decode(String.self, forKey: .formattedTotal)
        nextCursor = container.contains(.nextCursor) ? .some(try container.decodeIfPresent(String.self, forKey: .nextCursor)) : .none
        index = try container.decodeIfPresent(Int.self, forKey: .index)
        counts = try container.decodeIfPresent([String: Int].self, forKey: .counts)
        formattedCounts = try container.decodeIfPresent([String: String].self, forKey: .formattedCounts)
        sections = try container.decodeIfPresent([SectionChange].self, forKey: .sections)
        removedSections = try container.decodeIfPresent([String].self, forKey: .removedSections)
        ops = try container.decode([LiveOp<Row>].self, forKey: .ops)
    }
}

/// One edit of a window, applied in order.
enum LiveOp<Row: ListRow>: Decodable {
    case remove(id: String)
    case move(id: String, to: Int)
    case insert(index: Int, row: Row)
    case update(row: Row)

    private enum CodingKeys: String, CodingKey { case op, id, to, index, row }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .op) {
        case "remove": self = .remove(id: try container.decode(String.self, forKey: .id))
        case "move": self = .move(id: try container.decode(String.self, forKey: .id), to: try container.decode(Int.self, forKey: .to))
        case "insert":
            self = .insert(index: try container.decode(Int.self, forKey: .index), row: try container.decode(Row.self, forKey: .row))
        case "update": self = .update(row: try container.decode(Row.self, forKey: .row))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown op \(other)")
        }
    }
}

/// The key a multiplexed stream's event names.
enum LiveEventTag {
    private struct Tagged: Decodable {
        var list: String?
    }

    /// `data`'s `list`. The service writes it first (`{"list":"l3",…`), so it is read from
    /// there: a snapshot of 500 rows is decoded once, by its list, not a second time for its
    /// key. Data that does not start so is decoded.
    static func key(of data: String) -> String? {
        let prefix = #"{"list":""#
        if data.hasPrefix(prefix) {
            let rest = data.utf8.dropFirst(prefix.utf8.count)
            if let end = rest.firstIndex(of: UInt8(ascii: "\"")), !rest[..<end].contains(UInt8(ascii: "\\")) {
                return String(rest[..<end])
            }
        }
        return (try? JSONDecoder().decode(Tagged.self, from: Data(data.utf8)))?.list
    }
}
