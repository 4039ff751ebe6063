import Basics
import Foundation

/// A range of dates as reflection writes it (`String(reflecting:)`), made once per range: a
/// scope's description is part of every list's fingerprint, which cursors carry, and reflecting
/// a month or a day cost each of its requests about a tenth of its time. Few ranges are in use
/// (a month or a day per time zone), so the texts are kept; past 1,024 they start again.
enum ReflectedRanges {
    private static let texts = Locked<[Range<Date>: String]>([:])

    static func text(of range: Range<Date>) -> String {
        if let known = texts.withLock({ $0[range] }) { return known }
        let text = String(reflecting: range)
        texts.withLock { $0.remember(text, for: range, upTo: 1024) }
        return text
    }
}
