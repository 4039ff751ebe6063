/// Whose task a new one is. Everyone sees (and so changes) their own tasks only
/// (`readScope(for:)`); administrators see and change every task.
extension Tasks {
    /// The owner of a new task: the caller's own account; administrators and services may
    /// name another (`ownerId`), and an anonymous caller's task (where one is let in) has the
    /// one it names, or none.
    static func newTaskOwner(_ validator: inout FieldValidator, context: EditContext) -> Result<OwnerID, WriteRejection> {
        if let identity = context.caller.identity, !identity.role.isAdministrator {
            guard validator.body["ownerId"] == nil else {
                return .failure(.forbidden("create a task for someone else", allowed: "administrators"))
            }
            return .success(OwnerID(identity.subject))
        }
        let named = validator.text("ownerId", maxLength: 64, isRequired: false).map(OwnerID.init)
        return .success(named ?? context.caller.identity.map { OwnerID($0.subject) } ?? .none)
    }
}
