import Foundation

/// Earthquakes count the day's quakes (`all`) and its magnitude bands: `under2`, `2to4`,
/// `4to6`, `6plus` (`Earthquake.band(ofMagnitude:)`; a quake of unknown magnitude is in `all`
/// only).
extension Quakes {
    package static let countNames = ["all", "under2", "2to4", "4to6", "6plus"]

    package static func countScope(of scope: Scope, display: DisplayContext, now: Date) -> (scope: Range<Date>, validUntil: Date) {
        (scope.day, .distantFuture)  // a list of today is stale at midnight by its own criteria
    }

    /// The name of the band a quake is counted in (`under2` … `6plus`), for its row to be
    /// coloured as its chip; nil when its magnitude is unknown.
    package static func magnitudeBand(of quake: Earthquake) -> String? {
        quake.magnitude.map { bandName(Earthquake.band(ofMagnitude: $0)) }
    }

    /// A band's count name: `under2` for band 0 … `6plus` for band 3.
    static func bandName(_ band: Int) -> String { countNames[1 + min(band, 3)] }

    /// `all` is the day's list.
    package static func countedView(_ index: Int, in day: Range<Date>) -> (view: View, scope: Scope)? {
        index == 0 ? (.all, Scope(day: day)) : nil
    }

    /// The band of a quake of the day whose magnitude is known.
    package static func countBits(of fields: FilterFields, in day: Range<Date>, at: Date) -> UInt32 {
        guard day.contains(fields.time), let magnitude = fields.magnitude else { return 0 }
        return bit(1 + Earthquake.band(ofMagnitude: magnitude), true)
    }
}
