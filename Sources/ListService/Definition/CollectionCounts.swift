import Foundation

/// What a list answer counts beside its rows (`counts`): for each filter chip of the
/// collection, how many items it would hold under the same search and access. Each collection
/// names its counts and says which an item falls in; the engine keeps the numbers current as
/// items change.
package protocol CollectionCounts: CollectionQuery {
    /// What the counts depend on beside the search and the caller's access (the client's
    /// month or day, in its zone).
    associatedtype CountScope: Hashable & Sendable

    /// The counts' names, in the order they are written.
    static var countNames: [String] { get }
    /// The count scope of a list with `scope`, for `display` at `now`, and when it goes stale.
    static func countScope(of scope: Scope, display: DisplayContext, now: Date) -> (scope: CountScope, validUntil: Date)
    /// Which counts an item with `fields` falls in, counted at `at`: bit `i` for `countNames[i]`.
    static func countBits(of fields: FilterFields, in scope: CountScope, at: Date) -> UInt32
    /// When the counts such an item falls in change by themselves after `at` (a task falls
    /// overdue); nil when they do not.
    static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date?
    /// The view (in its scope) that count `index` counts the members of, when it is one: then
    /// the engine counts it from the view's member bits (with a search's match bits) instead
    /// of testing each item. Nil by default.
    static func countedView(_ index: Int, in scope: CountScope) -> (view: View, scope: Scope)?
}

extension CollectionCounts {
    package static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date? { nil }
    package static func countedView(_ index: Int, in scope: CountScope) -> (view: View, scope: Scope)? { nil }

    /// Bit `index` set when `condition` holds.
    static func bit(_ index: Int, _ condition: Bool) -> UInt32 { condition ? 1 << UInt32(index) : 0 }
}
