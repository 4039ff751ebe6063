import Foundation
import HTTPLite
import ListService
import ListServiceAuth

/// Sign-in without an identity provider, for a server on this machine: a few identities to
/// pick from (the three customers with the most orders who also have tasks, one staff member,
/// one administrator), and a token for any of them, signed with a key made at start-up that
/// only this process holds. Offered by default on a loopback address with no identity source,
/// and then refused to requests a proxy passed on; asked for (`--demo-identities`), to any.
package struct DemoIdentities: Sendable {
    let signer: TokenSigner
    /// Whether they were asked for (`--demo-identities`) rather than on by default.
    package let isExplicit: Bool
    /// How long a demo token is valid.
    static let lifetime: TimeInterval = 8 * 3600

    /// One identity to sign in as, with the name a picker shows.
    struct Choice {
        let identity: Identity
        let name: String
    }

    /// Nil if the system gives no randomness for the key.
    package init?(isExplicit: Bool = false) {
        guard let signer = TokenSigner(keyID: "demo") else { return nil }
        self.signer = signer
        self.isExplicit = isExplicit
    }

    /// Nil when `request` may sign in; else the 404 it gets: demo identities on by default are
    /// for callers on the server's machine, and a request a proxy passed on is not one.
    func refusal(of request: Request) -> HTTPError? {
        guard !isExplicit, request.isForwarded else { return nil }
        return HTTPError(
            .notFound, code: "not-found",
            detail: "Demo identities are offered by default only to callers on the server's own machine, and this request came "
                + "through a proxy (it carries Forwarded, X-Forwarded-For or X-Real-IP). Start the server with --demo-identities "
                + "to offer them to anyone who reaches it.")
    }

    /// The key that verifies demo tokens: joins the service's key set.
    package var verificationKey: VerificationKey { signer.verificationKey }

    /// The identities offered, from the data as it is now.
    func choices(in service: CollectionService) -> [Choice] {
        let orders = service.engine(Orders.self).state
        let taskOwners = Set(service.engine(Tasks.self).state.ownersByItemCount.map(\.owner))
        let customers = orders.ownersByItemCount.lazy.filter { taskOwners.contains($0.owner) }.prefix(3).compactMap { entry -> Choice? in
            guard let account = entry.owner.text else { return nil }
            let name = orders.firstItem(ownedBy: entry.owner)?.customerName ?? account
            return Choice(identity: Identity(subject: account, role: .customer), name: name)
        }
        return Array(customers) + [
            Choice(identity: Identity(subject: "staff-1", role: .staff), name: "Sam Staff"),
            Choice(identity: Identity(subject: "admin-1", role: .admin), name: "Ada Admin"),
        ]
    }

    /// A token for `identity`, valid from `now` for `lifetime`, with when it expires.
    func token(for identity: Identity, now: Date) -> (token: String, expiresAt: Date) {
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return (signer.token(for: identity, now: issued, lifetime: Self.lifetime), issued.addingTimeInterval(Self.lifetime))
    }
}
