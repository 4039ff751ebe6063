/// Who may change which order. Customers see only their own orders (`readScope(for:)`), so
/// every rule here is about an order the caller may see.
extension Orders {
    /// Whether readers of `access` manage orders (complete and delete any): staff and above, who
    /// see every order; a customer, who sees their own, may cancel a pending one and nothing
    /// more. The rule of `editRefusal` as a list's readers share it: an order row's
    /// `canComplete` and `canDelete` follow it.
    package static func manages(in access: AccessScope) -> Bool { access == .everything }

    /// Customers cancel their own pending orders and change their own shipping address;
    /// completing, other changes and deleting are for staff.
    package static func editRefusal(_ edit: ItemEdit, on order: Order, by caller: Caller) -> WriteRejection? {
        guard !caller.isAtLeast(.staff) else { return nil }
        switch edit {
        case .action("cancel"): return nil  // a completed order is refused as for anyone (409)
        case .action(let name): return .forbidden("\(name) orders", allowed: "staff")
        case .patch(let body):
            let staffOnly = body.keys.filter { $0 != "shippingAddress" && patchableFields.contains($0) }
            guard let field = staffOnly.first else { return nil }
            return .forbidden("change an order's \(field)", allowed: "staff")
        case .delete: return .forbidden("delete orders", allowed: "staff")
        }
    }
}
