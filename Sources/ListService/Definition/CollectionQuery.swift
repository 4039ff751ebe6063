import Foundation

/// A closed set of values a query parameter may take (`filter=pending`, `sort=total`).
package protocol ListChoice: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// What a collection's lists are made of: its items and their ids, its named views (filters)
/// and what they read, its searchable fields, its sort keys and defaults, and the parameters
/// beyond the common ones. The engine parses criteria, filters, searches and sorts from these.
package protocol CollectionQuery: Sendable {
    associatedtype Item: Sendable
    /// The named lists (`filter` for orders, `view` for tasks).
    associatedtype View: ListChoice
    associatedtype SortField: ListChoice
    /// The few fields filters read, extracted once per item so a scan stays in cache.
    associatedtype FilterFields: Sendable
    /// What a request adds to its view, decided when the request is read (this month in the
    /// client's zone, one day); part of what identifies a list.
    associatedtype Scope: Hashable & Sendable & CustomStringConvertible

    /// The path segment and name: `orders` serves `/orders`.
    static var name: String { get }
    /// One item, for messages: "No order with id …".
    static var itemName: String { get }
    /// The query parameter that picks the view; nil when the collection has one view only.
    static var viewParameter: String? { get }
    static var defaultView: View { get }
    /// Parameters of this collection beyond the common ones (`date` for earthquakes).
    static var scopeParameters: [String] { get }
    /// Extra spellings accepted for `order` (`forward`, `reverse`).
    static var directionAliases: [String: SortDirection] { get }

    static func defaultSortField(for view: View) -> SortField
    static func defaultDirection(for field: SortField, view: View) -> SortDirection

    /// Reads the collection's own parameters into the scope of the list.
    static func scope(
        for view: View, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope>

    static func id(of item: Item) -> String
    /// The sequence number in an id the service assigned (`o-000123` → 123); new ids continue
    /// after the highest. Nil for ids the service does not assign.
    static func sequence(of id: String) -> Int?
    static func filterFields(of item: Item) -> FilterFields
    /// The one definition of each view: whether an item with these fields belongs to it.
    static func matches(_ fields: FilterFields, view: View, scope: Scope) -> Bool
    /// Whether `view` holds every item (`all`), so a query need not test each one.
    static func holdsEveryItem(_ view: View) -> Bool
    /// The text `q` searches, one function per field (the engine folds what they give).
    static var searchableFields: [@Sendable (Item) -> String] { get }
    /// What `field` sorts by (the engine makes a text's collation key once per distinct value
    /// where it can).
    static func sortValue(of item: Item, by field: SortField) -> SortValue
    /// Whether `field`'s values are text, which sorts by the client's locale's collation (its
    /// lists are then kept per collation), or numbers, which sort alike in every locale.
    static func sortsByText(_ field: SortField) -> Bool

    /// The account `item` belongs to; `none` for an unowned item or a collection without owners.
    static func owner(of item: Item) -> OwnerID
    /// Which items `caller`'s lists hold: the one rule of what a caller may see.
    static func readScope(for caller: Caller) -> AccessScope
    /// Whether anyone may read, signed in or not, where the service checks tokens (quakes and
    /// people are public; orders and tasks need an identity).
    static var isPublic: Bool { get }
}

extension CollectionQuery {
    /// The text `q` searches in `item`, one string per field.
    static func searchableText(of item: Item) -> [String] { searchableFields.map { $0(item) } }
    /// The key `item` sorts by on `field`, text by `collation`.
    package static func sortKey(of item: Item, by field: SortField, in collation: Collation) -> SortKey {
        SortKey(sortValue(of: item, by: field), collation: collation)
    }
    package static var scopeParameters: [String] { [] }
    package static var directionAliases: [String: SortDirection] { [:] }
    package static func sequence(of id: String) -> Int? { nil }
    package static func holdsEveryItem(_ view: View) -> Bool { false }
    package static func owner(of item: Item) -> OwnerID { .none }
    package static func readScope(for caller: Caller) -> AccessScope { .everything }
    package static var isPublic: Bool { true }
}

extension CollectionQuery where Scope == NoScope {
    package static func scope(
        for view: View, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope> {
        ResolvedScope(NoScope())
    }
}

/// A list's scope, when it goes stale, and the scope parameters as applied (for the
/// response's `criteria`, defaults filled in).
package struct ResolvedScope<Scope: Hashable & Sendable>: Sendable {
    package let scope: Scope
    package let validUntil: Date
    package let appliedParameters: [String: String]

    package init(_ scope: Scope, validUntil: Date = .distantFuture, appliedParameters: [String: String] = [:]) {
        self.scope = scope
        self.validUntil = validUntil
        self.appliedParameters = appliedParameters
    }
}

/// The scope of a collection whose views need nothing from the request.
package struct NoScope: Hashable, Sendable, CustomStringConvertible {
    package init() {}

    /// As reflection wrote it (`NoScope()`): list fingerprints, which cursors carry, are made from it.
    package var description: String { "NoScope()" }
}

/// What a collection sorts an item by: a number, or text.
package enum SortValue: Sendable, Hashable {
    case number(Int64)
    case text(String)
}

extension SortValue {
    /// A rank in the high bits and an instant (milliseconds since 1970, up to 2109) reversed in
    /// the low 42: ascending, by rank and then the latest instant first; descending, the
    /// highest rank and then the earliest instant first.
    package static func ranked(_ rank: Int, thenReversed milliseconds: Int64) -> SortValue {
        let limit = Int64(1 << 42) - 1
        return .number(Int64(rank) << 42 | (limit - min(max(milliseconds, 0), limit)))
    }
}

/// A sort value as it compares: a number, or text by its collation key (letters first, then
/// accents, then case, as the locale weighs them) and then exactly. Ties between equal keys
/// always break by id, ascending.
package enum SortKey: Comparable, Sendable, Hashable {
    case number(Int64)
    case text(CollationKey, exact: String)

    package init(_ value: SortValue, collation: Collation) {
        switch value {
        case .number(let number): self = .number(number)
        case .text(let text): self = .text(collation.key(text), exact: text)
        }
    }

    package static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b
        case (.text(let a, let exactA), .text(let b, let exactB)): a != b ? a < b : exactA < exactB
        case (.number, .text): true
        case (.text, .number): false
        }
    }

    /// Whether both keys are numbers or both are text.
    func isSameKind(as other: SortKey) -> Bool {
        switch (self, other) {
        case (.number, .number), (.text, .text): true
        default: false
        }
    }

    /// The key as cursor text; `init(cursorText:collation:)` reads it back.
    var cursorText: String {
        switch self {
        case .number(let value): "n\(value)"
        case .text(_, let exact): "t\(exact)"
        }
    }

    init?(cursorText: String, collation: Collation) {
        switch cursorText.first {
        case "n":
            guard let value = Int64(cursorText.dropFirst()) else { return nil }
            self = .number(value)
        case "t":
            self.init(.text(String(cursorText.dropFirst())), collation: collation)
        default:
            return nil
        }
    }
}
