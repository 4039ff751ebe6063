import Glibc

/// The IMF-fixdate for the `Date` header (RFC 9110 §5.6.7), recomputed at most once a second.
struct HTTPDateCache {
    private var second: time_t = -1
    private(set) var bytes: [UInt8] = []

    /// The current date's bytes, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            bytes = Array(Self.format(now).utf8)
        }
        return bytes
    }

    static func format(_ seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
