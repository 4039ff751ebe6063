import Foundation

/// What a write is judged with besides its body: the time, the client's time zone (a date
/// without a time means a day in the client's zone), and who asks (a customer's new order is
/// theirs).
package struct EditContext: Sendable {
    package let now: Date
    /// An IANA name (`Europe/Berlin`), as in `DisplayContext`.
    package let timeZoneIdentifier: String
    package let caller: Caller

    package init(now: Date, timeZoneIdentifier: String, caller: Caller = .anonymous) {
        self.now = now
        self.timeZoneIdentifier = timeZoneIdentifier
        self.caller = caller
    }

    /// The owner of a new item: a caller below `role` gets their own account (naming one in
    /// `field` is `refusal`); one at `role` or above (or anonymous, where let in) may name one,
    /// else `otherwise`.
    package func newOwner(
        named field: String, by role: Identity.Role, in validator: inout FieldValidator, otherwise: OwnerID, refusal: WriteRejection
    ) -> Result<OwnerID, WriteRejection> {
        if let identity = caller.identity, !caller.isAtLeast(role) {
            guard validator.body[field] == nil else { return .failure(refusal) }
            return .success(OwnerID(identity.subject))
        }
        return .success(validator.text(field, maxLength: 64, isRequired: false).map(OwnerID.init) ?? otherwise)
    }
}
