import Foundation

/// Earthquakes fall into the hours of the client's clock (`hour`, sorted by time) or into the
/// magnitude bands the counts use (`magnitude`, sorted by magnitude; unknown magnitudes last
/// of all, as they sort).
extension Quakes {
    package enum Grouping: String, ListChoice {
        case hour, magnitude
    }

    package static func sortField(for grouping: Grouping) -> SortField {
        grouping == .hour ? .time : .magnitude
    }

    /// The local hour, or the magnitude's band (-1 for an unknown magnitude).
    package static func section(of quake: Earthquake, grouping: Grouping, in context: SectionContext) -> Int64 {
        switch grouping {
        case .hour: context.timeZone.localHour(of: quake.time)
        case .magnitude: quake.magnitude.map { Int64(Earthquake.band(ofMagnitude: $0)) } ?? -1
        }
    }

    /// `2026-11-23T14` (the local hour); a band's count name (`2to4`), or `unknown`.
    package static func sectionKey(_ section: Int64, grouping: Grouping, in context: SectionContext) -> String {
        switch grouping {
        case .hour:
            let (day, hour) = section.quotientAndRemainder(dividingBy: 24)
            return "\(LocalDate(daysSince1970: day).isoText)T\(String(zeroPadded: Int(hour), width: 2))"
        case .magnitude: return section < 0 ? "unknown" : bandName(Int(section))
        }
    }

    /// An hour ("2 PM", "14 Uhr") with its day beneath ("Today", "Monday, November 23").
    package static func heading(
        of section: Int64, grouping: Grouping, in context: SectionContext, writing row: inout RowContext<QuakePhrases>
    ) -> (title: String, subtitle: String?, validUntil: Date?) {
        switch grouping {
        case .hour:
            let day = context.dayHeading(section.quotientAndRemainder(dividingBy: 24).quotient, formatting: &row.formatting)
            return (row.formatting.date(context.middle(ofLocalHour: section), template: "j"), day.title, day.validUntil)
        case .magnitude:
            return (section < 0 ? row.phrases.unknownMagnitude : row.phrases.bands[Int(min(section, 3))], nil, nil)
        }
    }
}
