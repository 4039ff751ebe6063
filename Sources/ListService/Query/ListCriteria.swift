import Basics
import Foundation

/// A validated, normalized list request of collection `C`: which items, in which order,
/// which page, and how to format them.
package struct ListCriteria<C: ListCollection>: Sendable, Hashable {
    /// The fields, held once behind one reference: criteria are the shared pages' keys, which
    /// every look-up copies, and a copy of the fields themselves was a dozen reference counts.
    private let box: Box

    private final class Box: Sendable {
        let fields: Fields
        /// Made when first asked for: a page served from the caches never needs it.
        private let madeFingerprint = Locked<String?>(nil)

        init(_ fields: Fields) { self.fields = fields }

        var fingerprint: String {
            madeFingerprint.withLock { made in
                if let made { return made }
                let fingerprint = fields.makeFingerprint()
                made = fingerprint
                return fingerprint
            }
        }
    }

    package var view: C.View { box.fields.view }
    package var scope: C.Scope { box.fields.scope }
    /// Which items the caller may see: part of the list's identity, its cache key and its cursors.
    package var access: AccessScope { box.fields.access }
    package var search: String { box.fields.search }
    package var foldedSearch: String { box.fields.foldedSearch }
    package var sort: C.SortField { box.fields.sort }
    package var direction: SortDirection { box.fields.direction }
    /// How the list falls into sections (`group=`), if asked; it fits the sort.
    package var group: C.Grouping? { box.fields.group }
    package var limit: Int { box.fields.limit }
    package var start: PageStart { box.fields.start }
    package var display: DisplayContext { box.fields.display }
    /// The order of a text sort: the client's locale's collation (`Collation.root` for a sort
    /// by numbers, which every locale shares).
    package var collation: Collation { box.fields.collation }
    /// When the list's meaning changes by itself (the month or day ends), or `distantFuture`.
    package var validUntil: Date { box.fields.validUntil }
    /// The scope parameters as applied, for the response's `criteria` (`date`).
    package var appliedParameters: [String: String] { box.fields.appliedParameters }
    package var purpose: Purpose { box.fields.purpose }
    /// Identifies the list (not the page or formatting): cursors carry it. Made once, when
    /// first asked for (a new page's cursor, a cursor to check, a live list's changes), since
    /// writing the scope into it is not cheap.
    package var fingerprint: String { box.fingerprint }

    package static var limitRange: ClosedRange<Int> { 1...500 }

    /// What the criteria are for: a page of rows, every marker of a map in a fixed order, or
    /// the whole list exported.
    package typealias Purpose = ListPurpose

    /// The parameters a request for `purpose` may carry.
    package static func parameters(for purpose: Purpose) -> [String] {
        (C.viewParameter.map { [$0] } ?? []) + [Purpose.searchParameter] + C.scopeParameters + Purpose.displayParameters
            + purpose.ownParameters
    }

    /// Whether a request for `purpose` may carry `name`: one of `parameters(for:)`, from the
    /// same parts, found without building that list for every request.
    static func accepts(_ name: String, for purpose: Purpose) -> Bool {
        name == Purpose.searchParameter || name == C.viewParameter || C.scopeParameters.contains(name)
            || Purpose.displayParameters.contains(name) || purpose.ownParameters.contains(name)
    }

    /// Validates `request`; every problem names its parameter.
    package init(_ request: ListRequest, now: Date, purpose: Purpose = .list) throws(ListServiceError) {
        box = Box(try Fields(request, now: now, purpose: purpose))
        if case .after(let cursor) = start, cursor.fingerprint != fingerprint {
            throw .invalidParameter(
                "cursor", "The cursor belongs to another list (other filters, q, sort, order, caller or, for a sort by text, locale).")
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.box.fields == rhs.box.fields }

    /// The list's and the page's own parts. What `==` compares besides (the search as typed,
    /// the parameters applied, when the list's meaning runs out, the collation) is left out:
    /// equal criteria still hash alike. A shared page is found by this on every request:
    /// hashing every field was 2% of one.
    package func hash(into hasher: inout Hasher) {
        let fields = box.fields
        hasher.combine(fields.view)
        hasher.combine(fields.scope)
        hasher.combine(fields.access)
        hasher.combine(fields.foldedSearch)
        hasher.combine(fields.sort)
        hasher.combine(fields.direction)
        hasher.combine(fields.limit)
        hasher.combine(fields.start)
        hasher.combine(fields.group)
        hasher.combine(fields.purpose)
        hasher.combine(fields.display)
    }

    /// What the criteria hold.
    private struct Fields: Sendable, Equatable {
        let view: C.View
        let scope: C.Scope
        let access: AccessScope
        let search: String
        let foldedSearch: String
        let sort: C.SortField
        let direction: SortDirection
        let group: C.Grouping?
        let limit: Int
        let start: PageStart
        let display: DisplayContext
        let collation: Collation
        let validUntil: Date
        let appliedParameters: [String: String]
        let purpose: Purpose

        init(_ request: ListRequest, now: Date, purpose: Purpose = .list) throws(ListServiceError) {
            self.purpose = purpose
            let reader = try ParameterReader(
                request.parameters, accepts: { ListCriteria.accepts($0, for: purpose) }, allowed: ListCriteria.parameters(for: purpose))
            view =
                try C.viewParameter.map { (name) throws(ListServiceError) in try reader.choice(name, default: C.defaultView) }
                ?? C.defaultView
            search = try reader.searchText(Purpose.searchParameter)
            foldedSearch = TextFolding.fold(search)
            if purpose == .map, let markerSort = C.markerSort {
                (sort, direction, group, limit) = (markerSort.field, markerSort.direction, nil, Int.max)
            } else {
                let group: C.Grouping? = try reader.choice("group")
                self.group = group
                sort = try reader.choice("sort", default: group.map(C.sortField(for:)) ?? C.defaultSortField(for: view))
                if let group, C.sortField(for: group) != sort {
                    throw .conflictingParameters(
                        "group", "sort",
                        "group=\(group.rawValue) needs sort=\(C.sortField(for: group).rawValue) (this list is sorted by \(sort.rawValue)).")
                }
                direction = try reader.direction("order", aliases: C.directionAliases, default: C.defaultDirection(for: sort, view: view))
                limit = try reader.integer("limit", in: ListCriteria.limitRange, default: 50) ?? 50
            }
            display = try reader.displayContext(acceptLanguage: request.acceptLanguage)
            collation = C.sortsByText(sort) ? Collation.of(display.localeTag) : .root
            let resolved = try C.scope(for: view, parameters: reader, display: display, now: now)
            scope = resolved.scope
            access = C.readScope(for: request.caller)
            validUntil = resolved.validUntil
            appliedParameters = resolved.appliedParameters
            start = try ListCriteria.pageStart(reader)
            if case .section = start, group == nil {
                throw .invalidParameter("cursor", "The cursor opens a section: ask with the group of the list it came from.")
            }
        }

        /// The digest of what identifies the list: each part by its description, not through
        /// `print`'s dynamic casts (5% of a request); a text sort's collation too, since a
        /// Swedish list's cursor is no place in an English one.
        func makeFingerprint() -> String {
            let order = C.sortsByText(sort) ? "\(sort.rawValue)@\(collation.id)" : sort.rawValue
            return ETag.hexDigest(
                joining: C.name, view.rawValue, scope.description, access.description, foldedSearch, order, direction.rawValue)
        }
    }

    private static func pageStart(_ reader: ParameterReader) throws(ListServiceError) -> PageStart {
        let offset = try reader.integer("offset", in: 0...10_000_000, default: nil)
        let cursorText = reader.string("cursor").flatMap { $0.isEmpty ? nil : $0 }  // empty: the first page
        if let id = reader.string("around") {
            guard cursorText == nil && offset == nil else {
                throw .invalidParameter("around", "Give around, cursor or offset: one of them, not two.")
            }
            guard !id.isEmpty, id.utf8.count <= 200 else { throw .invalidParameter("around", "around names an item's id.") }
            return .around(id)
        }
        switch (cursorText, offset) {
        case (let text?, nil):
            if let cursor = SectionCursor(encoded: text) { return .section(cursor) }
            guard let cursor = PageCursor(encoded: text) else {
                throw .invalidParameter("cursor", "The cursor is not one this server issued; use nextCursor from a previous page.")
            }
            return .after(cursor)
        case (nil, let offset?): return .offset(offset)
        case (nil, nil): return .first
        case (_?, _?): throw .invalidParameter("cursor", "Give either cursor or offset, not both.")
        }
    }
}

/// Where a page starts in its list.
package enum PageStart: Sendable, Hashable {
    case first
    case offset(Int)
    /// Keyset pagination: just after the row the cursor names, wherever it now is.
    case after(PageCursor)
    /// At the first row of the section the cursor names (a grouped list's jump index).
    case section(SectionCursor)
    /// The page whose rows centre on the item with this id (it is row `limit / 2` where the
    /// list allows: nearer its start or end, the page is the list's first or last).
    case around(String)
}

/// What a list is for: rows (`GET /{name}`), map markers (`GET /{name}/map`) or a file of
/// every row (`GET /{name}/export`).
package enum ListPurpose: Sendable, Hashable {
    case list
    case map
    case export

    /// The parameters a request for this purpose may carry beside every list's (`ListCriteria.parameters(for:)`).
    var ownParameters: [String] {
        switch self {
        case .list: Self.listParameters
        case .map: []
        case .export: Self.exportParameters
        }
    }

    /// The search text's parameter, which every list takes.
    static let searchParameter = "q"
    /// The display's parameters (locale, time zone), which every list takes.
    static let displayParameters = ["locale", "tz"]
    private static let listParameters = ["sort", "order", "group", "limit", "cursor", "offset", "around"]
    private static let exportParameters = ["sort", "order"] + ExportFormat.parameters
}
