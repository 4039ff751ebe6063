/// Ascending or descending; ties always break by id ascending so every order is total.
public enum SortDirection: String, Sendable, CaseIterable, Hashable {
    case asc, desc
}
