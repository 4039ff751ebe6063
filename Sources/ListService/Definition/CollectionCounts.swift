import Foundation

/// What a list answer counts beside its rows (`counts`): for each filter chip of the
/// collection, how many items it would hold under the same search and access. Each collection
/// names its counts and says what each counts: a view's members (`countedView`, by the view's
/// own definition), or items its `countBits` picks; the engine keeps the numbers current as
/// items change.
package protocol CollectionCounts: CollectionQuery {
    /// What the counts depend on beside the search and the caller's access (the client's
    /// month or day, in its zone).
    associatedtype CountScope: Hashable & Sendable

    /// The counts' names, in the order they are written.
    static var countNames: [String] { get }
    /// The count scope of a list with `scope`, for `display` at `now`, and when it goes stale.
    static func countScope(of scope: Scope, display: DisplayContext, now: Date) -> (scope: CountScope, validUntil: Date)
    /// The view (in its scope) whose members count `index` counts, when it is one: an item
    /// is in it as `matches` says, and with every count a view's the engine counts from the
    /// views' member bits (and a search's match bits) without visiting items. Nil by default.
    static func countedView(_ index: Int, in scope: CountScope) -> (view: View, scope: Scope)?
    /// Which of the counts that are no view's an item with `fields` falls in, counted at `at`:
    /// bit `i` for `countNames[i]`. None by default.
    static func countBits(of fields: FilterFields, in scope: CountScope, at: Date) -> UInt32
    /// When the counts such an item falls in change by themselves after `at` (a task falls
    /// overdue); nil when they do not.
    static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date?
}

extension CollectionCounts {
    package static func countedView(_ index: Int, in scope: CountScope) -> (view: View, scope: Scope)? { nil }
    package static func countBits(of fields: FilterFields, in scope: CountScope, at: Date) -> UInt32 { 0 }
    package static func countBitsExpiry(of fields: FilterFields, in scope: CountScope, at: Date) -> Date? { nil }

    /// The view each count of `scope` counts (nil for a count that is no view's), in order.
    static func countedViews(in scope: CountScope) -> [(view: View, scope: Scope)?] {
        countNames.indices.map { countedView($0, in: scope) }
    }

    /// Every count an item with `fields` falls in: the counted views that hold it and its
    /// `countBits`. `views`: `countedViews(in: scope)`, found once per count.
    static func allCountBits(of fields: FilterFields, views: [(view: View, scope: Scope)?], in scope: CountScope, at: Date) -> UInt32 {
        views.enumerated().reduce(countBits(of: fields, in: scope, at: at)) { bits, counted in
            guard let view = counted.element, matches(fields, view: view.view, scope: view.scope) else { return bits }
            return bits | bit(counted.offset, true)
        }
    }

    /// Bit `index` set when `condition` holds.
    static func bit(_ index: Int, _ condition: Bool) -> UInt32 { condition ? 1 << UInt32(index) : 0 }
}
