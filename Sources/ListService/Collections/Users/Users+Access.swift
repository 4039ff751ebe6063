/// Who may change the people list: anyone counts a tap; only administrators add, rename or
/// remove people.
extension Users {
    package static func createRefusal(by caller: Caller) -> WriteRejection? {
        caller.isAtLeast(.admin) ? nil : .forbidden("add people", allowed: "administrators")
    }

    package static func editRefusal(_ edit: ItemEdit, on user: User, by caller: Caller) -> WriteRejection? {
        guard !caller.isAtLeast(.admin) else { return nil }
        switch edit {
        case .action: return nil
        case .patch: return .forbidden("rename people", allowed: "administrators")
        case .delete: return .forbidden("remove people", allowed: "administrators")
        }
    }
}
