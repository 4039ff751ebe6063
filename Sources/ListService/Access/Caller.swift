/// Who a request comes from, as the front door established it.
package enum Caller: Sendable, Hashable {
    /// No credential, on a service that lets such callers in: served as before identities
    /// existed (every item; writes under the service's key and loopback rules).
    case anonymous
    /// A verified token's person, or an API key's holder (the role `service`).
    case identified(Identity)

    /// The identity, nil for an anonymous caller.
    package var identity: Identity? {
        guard case .identified(let identity) = self else { return nil }
        return identity
    }

    /// Whether the caller sees and may change every item: anonymous (where allowed at all),
    /// or a role at least `role`.
    package func isAtLeast(_ role: Identity.Role) -> Bool {
        guard let identity else { return true }
        switch role {
        case .customer: return true
        case .staff: return identity.role.isStaff
        case .admin, .service: return identity.role.isAdministrator
        }
    }
}
