/// Which of a collection's items a caller's lists hold: every one, or one account's own.
/// Part of what identifies a list, so callers of one scope share its computation and never
/// see another scope's rows, totals or cursors.
package enum AccessScope: Hashable, Sendable, CustomStringConvertible {
    case everything
    case owner(OwnerID)

    /// Whether an item of `owner` is in scope (an unowned item is in `everything` only).
    package func admits(_ owner: OwnerID) -> Bool {
        switch self {
        case .everything: true
        case .owner(let account): owner == account && owner != .none
        }
    }

    /// For identifying a list: `*`, or `owner:c-0042`.
    package var description: String {
        switch self {
        case .everything: "*"
        case .owner(let account): "owner:\(account.text ?? "")"
        }
    }
}
