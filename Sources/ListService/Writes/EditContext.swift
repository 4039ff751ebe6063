import Foundation

/// What a write is judged with besides its body: the time, and the client's time zone (a
/// date without a time means a day in the client's zone).
package struct EditContext: Sendable {
    package let now: Date
    /// An IANA name (`Europe/Berlin`), as in `DisplayContext`.
    package let timeZoneIdentifier: String
}
