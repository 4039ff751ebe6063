import Basics
import CICU

/// A locale's order of text, by ICU's collation rules: Swedish puts Å, Ä, Ö after Z, Spanish Ñ
/// after N, German Ä with A. Locales that collate alike share one instance (English, German and
/// French all use the root order), and so share the lists sorted by text.
package final class Collation: Sendable, Hashable, CustomStringConvertible {
    /// The locale whose rules apply ("root", "sv", "es", "no" for Bokmål and Nynorsk alike):
    /// equal for every locale that collates alike.
    package let id: String
    private let collators: Locked<Collators>

    /// The order every locale without rules of its own uses (English, German, French…).
    package static let root = Collation.of("en")

    /// The collation of `localeTag` (`sv-SE`, `de`), one instance per rules locale.
    package static func of(_ localeTag: String) -> Collation {
        if let known = byTag.withLock({ $0[localeTag] }) { return known }
        // Made outside the lock; dropped (its collators closed) when its rules are known already.
        let made = Collation(collators: Collators(localeTag: localeTag))
        let collation = byID.withLock { byID in
            if let shared = byID[made.id] { return shared }
            byID[made.id] = made
            return made
        }
        byTag.withLock { $0[localeTag] = collation }
        return collation
    }

    // Bounded: tags are the negotiated ones (`LocaleNegotiation`), rules locales ICU's own.
    private static let byTag = Locked<[String: Collation]>([:])
    private static let byID = Locked<[String: Collation]>([:])

    private init(collators: sending Collators) {
        id = collators.rulesLocale
        self.collators = Locked(collators)
    }

    /// What `text` compares by: case and accents after the letters, as the locale weighs them.
    package func key(_ text: String) -> CollationKey {
        CollationKey(bytes: collators.withLock { Self.sortKey(text, by: $0.full) })
    }

    /// What `text` compares by on its letters alone (no case or accent that is not a letter of
    /// its own): what decides the index letter it files under.
    package func baseLetterKey(_ text: String) -> CollationKey {
        CollationKey(bytes: collators.withLock { Self.sortKey(text, by: $0.baseLettersOnly) })
    }

    private static func sortKey(_ text: String, by collator: UnsafeMutableRawPointer) -> [UInt8] {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { units in
            var key = [UInt8](repeating: 0, count: 64)
            let length = Int(cicu_collator_sort_key(collator, units.baseAddress, Int32(units.count), &key, Int32(key.count)))
            if length > key.count {
                key = [UInt8](repeating: 0, count: length)
                _ = cicu_collator_sort_key(collator, units.baseAddress, Int32(units.count), &key, Int32(key.count))
            }
            // The length counts the key's terminating zero, which every key ends with alike.
            key.removeSubrange(max(0, length - 1)...)
            return key
        }
    }

    package static func == (lhs: Collation, rhs: Collation) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
    package var description: String { id }
}

/// A string's collation key: keys compare as bytes in the order their strings collate.
package struct CollationKey: Comparable, Hashable, Sendable {
    let bytes: [UInt8]

    package static func < (lhs: CollationKey, rhs: CollationKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

/// ICU's collators for one locale: the full one and one that weighs base letters only. Used
/// by one caller at a time (`Collation` keeps them behind a lock): ICU's C API does not
/// promise that one collator serves two threads at once.
private final class Collators {
    let full: UnsafeMutableRawPointer
    let baseLettersOnly: UnsafeMutableRawPointer
    /// The locale whose rules ICU applies for the tag asked for ("root" when none of its own).
    let rulesLocale: String

    init(localeTag: String) {
        let icuLocale = String(localeTag.map { $0 == "-" ? "_" : $0 })
        var rulesLocale = [CChar](repeating: 0, count: 64)
        // ICU falls back to the root rules for a locale it has none for: opening fails only
        // for want of memory, which nothing here could answer.
        guard let full = cicu_collator_open(icuLocale, 0, &rulesLocale, Int32(rulesLocale.count)),
            let baseLettersOnly = cicu_collator_open(icuLocale, 1, nil, 0)
        else { preconditionFailure("ICU could not open a collator for \(localeTag)") }
        self.full = full
        self.baseLettersOnly = baseLettersOnly
        self.rulesLocale = String(decoding: rulesLocale.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        cicu_collator_close(full)
        cicu_collator_close(baseLettersOnly)
    }
}
