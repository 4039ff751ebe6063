import Foundation

extension Date {
    /// Whole milliseconds since 1970 (rounded): how feeds write times and how sort keys compare them.
    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The instant `milliseconds` after 1970.
    init(millisecondsSince1970 milliseconds: Double) { self.init(timeIntervalSince1970: milliseconds / 1000) }
}
