/// What identifies a list, not a page of it: which items (the view in its scope, the caller's
/// access, the search) in which order. Callers with equal definitions share one computation.
package struct ListDefinition<C: ListCollection>: Hashable, Sendable {
    let view: C.View
    let scope: C.Scope
    let access: AccessScope
    let foldedSearch: String
    let sort: C.SortField
    let direction: SortDirection
    /// The order of a text sort (`Collation.root` for a sort by numbers, so that such lists
    /// are one for every locale).
    let collation: Collation

    init(
        view: C.View, scope: C.Scope, access: AccessScope = .everything, foldedSearch: String = "", sort: C.SortField,
        direction: SortDirection, collation: Collation = .root
    ) {
        self.view = view
        self.scope = scope
        self.access = access
        self.foldedSearch = foldedSearch
        self.sort = sort
        self.direction = direction
        self.collation = C.sortsByText(sort) ? collation : .root
    }

    /// Whether `item` belongs to this list: the caller may see it, the view holds it, and the
    /// search finds it.
    func includes(_ item: C.Item) -> Bool {
        access.admits(C.owner(of: item)) && C.matches(C.filterFields(of: item), view: view, scope: scope)
            && Self.search(foldedSearch, finds: item)
    }

    /// Whether one of `item`'s searchable texts contains `foldedSearch` (folded); an empty search finds every item.
    static func search(_ foldedSearch: String, finds item: C.Item) -> Bool {
        foldedSearch.isEmpty || TextFolding.search(foldedSearch, findsIn: C.searchableText(of: item).map(TextFolding.fold))
    }
}

extension ListCriteria {
    /// The list these criteria page through.
    package var definition: ListDefinition<C> {
        ListDefinition(
            view: view, scope: scope, access: access, foldedSearch: foldedSearch, sort: sort, direction: direction, collation: collation)
    }
}
