import Basics
import Foundation

/// How a client wants values shown: its locale and time zone, both already validated.
package struct DisplayContext: Hashable, Sendable {
    /// BCP 47 tag, e.g. `en-US`.
    package let localeTag: String
    /// IANA name, e.g. `Europe/Berlin`.
    package let timeZoneIdentifier: String

    package init(localeTag: String, timeZoneIdentifier: String) {
        self.localeTag = localeTag
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The client's zone.
    package var timeZone: TimeZone { Self.zone(named: timeZoneIdentifier) }

    /// The zone `name` names (validated when the request was read), else UTC.
    static func zone(named name: String) -> TimeZone {
        timeZone(named: name) ?? TimeZone(identifier: "UTC") ?? .current
    }

    /// The language of a BCP 47 tag, lowercased (`de-DE` → `de`). Every formatted row finds its
    /// phrases by it, so a tag that starts with a lowercase language is read without splitting.
    package static func language(of localeTag: String) -> String {
        let language = localeTag.utf8.prefix { $0 != UInt8(ascii: "-") }
        if !language.isEmpty, !language.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return String(Substring(language))
        }
        return localeTag.split(separator: "-").first.map { $0.lowercased() } ?? "en"
    }

    /// Validates a time zone name: IANA identifiers only (`Europe/Berlin`, `UTC`), never abbreviations.
    package static func timeZone(named name: String) -> TimeZone? {
        // Every list request names a zone (UTC when it names none); Foundation's look-up was 1% of one.
        if let known = knownZones.withLock({ $0[name] }) { return known }
        guard name.utf8.count <= 64, let zone = TimeZone(identifier: name), zone.identifier == name || name == "UTC" else {
            return nil
        }
        knownZones.withLock { $0.remember(zone, for: name, upTo: 1024) }
        return zone
    }

    /// The zones named lately, by name (valid names only).
    private static let knownZones = Locked<[String: TimeZone]>([:])
}
