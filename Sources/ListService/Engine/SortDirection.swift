/// Ascending or descending; ties always break by id ascending so every order is total.
package enum SortDirection: String, Sendable, CaseIterable, Hashable {
    case asc, desc
}
