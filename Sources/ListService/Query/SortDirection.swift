/// Ascending or descending; ties always break by id ascending so every order is total.
package enum SortDirection: String, Sendable, CaseIterable, Hashable {
    case asc, desc
}

extension SortDirection {
    /// Whether the item at (`key`, `id`) comes after the one at (`otherKey`, `otherID`) in
    /// this direction, ties by id ascending: the one comparison every sorted order uses.
    func places(_ key: SortKey, _ id: String, after otherKey: SortKey, _ otherID: String) -> Bool {
        if key == otherKey { return id > otherID }
        return self == .asc ? otherKey < key : key < otherKey
    }
}
