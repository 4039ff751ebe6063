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
}
