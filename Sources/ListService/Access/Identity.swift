/// Who is asking: a signed-in person (a token's `sub` and role) or a service (an API key).
package struct Identity: Sendable, Hashable {
    /// The person's account (`c-0001`); an API key's holder's is `api-key-` and the key's place.
    package let subject: String
    package let role: Role

    package init(subject: String, role: Role) {
        self.subject = subject
        self.role = role
    }

    /// What an identity may do beyond its own items.
    package enum Role: String, Sendable, CaseIterable {
        /// Their own orders and tasks (the default for a token without a role).
        case customer
        /// Every order; their own tasks.
        case staff
        /// Everything, and the people list's and the import's administration.
        case admin
        /// An API key's holder: everything.
        case service

        /// The role's holders, for messages: "administrators".
        package var plural: String {
            switch self {
            case .customer: "customers"
            case .staff: "staff"
            case .admin: "administrators"
            case .service: "services"
            }
        }

        /// Whether the role is at least staff (staff, admin or service).
        package var isStaff: Bool { self != .customer }
        /// Whether the role administers (admin or service).
        package var isAdministrator: Bool { self == .admin || self == .service }
    }
}
