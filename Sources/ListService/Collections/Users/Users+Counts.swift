import Foundation

/// People count one chip: `all`.
extension Users {
    package static let countNames = ["all"]

    package static func countScope(of scope: NoScope, display: DisplayContext, now: Date) -> (scope: NoScope, validUntil: Date) {
        (NoScope(), .distantFuture)
    }

    package static func countedView(_ index: Int, in scope: NoScope) -> (view: View, scope: NoScope)? { (.all, NoScope()) }
}
