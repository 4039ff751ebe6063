/// A write sent with an `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): whose
/// key it is, the key, and a digest of what was asked, so that a retry (the same request) is
/// told from a reuse (another request under the same key).
package struct KeyedRequest: Sendable, Hashable {
    /// Whose key it is: the same key from two callers names two requests.
    package let owner: String
    package let key: String
    /// A digest of the request (method, target, precondition, body), in hex.
    package let fingerprint: String

    package init(owner: String, key: String, fingerprint: String) {
        self.owner = owner
        self.key = key
        self.fingerprint = fingerprint
    }

    /// A key of `caller`'s: an identity's keys are its subject's, an anonymous caller's are shared.
    package init(caller: Caller, key: String, fingerprint: String) {
        self.init(owner: caller.identity.map { "sub:\($0.subject)" } ?? "anonymous", key: key, fingerprint: fingerprint)
    }

    /// Owner and key as one unambiguous string (the owner's length first): how the answer is
    /// filed in the ledger, the journal and the database.
    package var ledgerID: String { "\(owner.utf8.count):\(owner)/\(key)" }
}
