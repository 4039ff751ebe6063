import Basics
import HTTPLite

/// The names the service answers to in `Host`: a guard against DNS rebinding, where a page
/// on another site resolves its own name to this machine and reads or writes through it.
package struct AllowedHosts: Sendable {
    /// Lowercased names without a port, as bytes (compared with each request's `Host`); nil
    /// answers any name.
    private let names: [[UInt8]]?

    /// What a server bound to a loopback address answers by default.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// `names` (from `--allowed-host`) when given; else the loopback names for a server bound
    /// to a loopback address, and any name for one bound to another (its names are unknown).
    package init(names: [String], boundTo address: String) {
        if !names.isEmpty {
            self.names = Set(names.map { $0.lowercased() }).map { Array($0.utf8) }
        } else {
            self.names = Self.isLoopback(address) ? Self.loopbackNames.map { Array($0.utf8) } : nil
        }
    }

    /// Any host: in-process tests, and servers that leave the check to a proxy.
    package static let any = AllowedHosts(names: nil)

    private init(names: [[UInt8]]?) { self.names = names }

    /// Whether an address names this machine only (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ address: String) -> Bool {
        let address = address.lowercased()
        return address == "localhost" || address == "::1" || address == "[::1]" || address.hasPrefix("127.")
    }

    /// Whether a request with this `Host` value is served; a request without one (HTTP/1.0)
    /// is, since browsers always send it. Compares bytes in place: this runs on every request.
    func admits(_ host: String?) -> Bool {
        guard let names, let host else { return true }
        return withUTF8Bytes(of: host) { bytes in
            // The name ends at the port's colon; an IPv6 literal keeps its brackets.
            let end: Int
            if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
                end = close + 1
            } else {
                end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            }
            let name = bytes[..<end]
            return names.contains { allowed in
                allowed.count == name.count && zip(allowed, name).allSatisfy { $0 == Self.lowercased($1) }
            }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
